package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// modes are the kustomizations the chart is generated from, by etcd.mode: the deploy
// base (an etcd cluster), its single overlay (the embedded etcd) and its external-etcd
// overlay (an etcd the user runs).
var modes = []struct{ name, dir string }{
	{"cluster", "artifacts/deploy"},
	{"single", "artifacts/deploy/overlays/single"},
	{"external", "artifacts/deploy/overlays/external-etcd"},
}

// object is one rendered Kubernetes object.
type object map[string]interface{}

func (o object) id() string {
	meta, _ := o["metadata"].(map[string]interface{})
	return fmt.Sprintf("%v/%v/%v", o["kind"], meta["namespace"], meta["name"])
}

// kustomize renders a kustomization as `kubectl apply -k` would.
func kustomize(root, dir string) ([]object, error) {
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	m, err := k.Run(filesys.MakeFsOnDisk(), root+"/"+dir)
	if err != nil {
		return nil, fmt.Errorf("kustomize %s: %w", dir, err)
	}
	var out []object
	for _, r := range m.Resources() {
		data, err := r.AsYAML()
		if err != nil {
			return nil, err
		}
		var o object
		if err := yaml.Unmarshal(data, &o); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

const marker = "__HOLE__"

// punch replaces every hole of mode in objs with a marker naming its value, and
// records the value's default (what the kustomize output has) in values.
func punch(objs []object, mode string, values map[string]interface{}) error {
	byID := map[string]object{}
	for _, o := range objs {
		byID[fmt.Sprintf("%v/%v", o["kind"], o.name())] = o
	}
	for i, h := range holes {
		if !h.in(mode) {
			continue
		}
		o, ok := byID[h.kind+"/"+h.name]
		if !ok {
			return fmt.Errorf("%s: no %s %s in the kustomize output", mode, h.kind, h.name)
		}
		parent, key, err := walk(o, h.path)
		if err != nil {
			return fmt.Errorf("%s: %s %s: %w", mode, h.kind, h.name, err)
		}
		def, found := parent[key]
		if !found {
			return fmt.Errorf("%s: %s %s has no %s", mode, h.kind, h.name, strings.Join(h.path, "."))
		}
		if h.expr != "" {
			parent[key] = marker + "expr:" + strconv.Itoa(i)
			continue
		}
		setValue(values, h.value, def)
		kind := "scalar"
		if h.block {
			kind = "block"
		}
		parent[key] = marker + kind + ":" + h.value
	}
	for i, h := range argHoles {
		o, ok := byID[h.kind+"/"+h.name]
		if !ok {
			return fmt.Errorf("%s: no %s %s in the kustomize output", mode, h.kind, h.name)
		}
		parent, key, err := walk(o, containerField(h.container, "args"))
		if err != nil {
			return fmt.Errorf("%s: %s %s: %w", mode, h.kind, h.name, err)
		}
		args, _ := parent[key].([]interface{})
		found := false
		for j, a := range args {
			text, ok := a.(string)
			arg, ok2 := strings.CutPrefix(text, h.flag+"=")
			if !ok || !ok2 {
				continue
			}
			def, err := argDefault(h, arg)
			if err != nil {
				return fmt.Errorf("%s: %s %s: %w", mode, h.kind, h.name, err)
			}
			setValue(values, h.value, def)
			args[j] = marker + "arg:" + strconv.Itoa(i)
			found = true
		}
		if !found {
			return fmt.Errorf("%s: %s %s has no argument %s=", mode, h.kind, h.name, h.flag)
		}
	}
	for _, h := range featureGateArgs {
		o, ok := byID[h.kind+"/"+h.name]
		if !ok {
			continue // the single mode has no etcd; every mode has all of these
		}
		parent, key, err := walk(o, h.path)
		if err != nil {
			return fmt.Errorf("%s: %s %s: %w", mode, h.kind, h.name, err)
		}
		args, _ := parent[key].([]interface{})
		parent[key] = append(args, marker+"featuregates")
	}
	if _, ok := values["featureGates"]; !ok {
		values["featureGates"] = map[string]interface{}{}
	}
	return nil
}

// argDefault is the value of h's argument arg in values.yaml: a JSON argument decoded,
// which must be written as helm's toJson renders it, so that the chart's defaults render
// the kustomize output exactly.
func argDefault(h argHole, arg string) (interface{}, error) {
	if !h.json {
		return arg, nil
	}
	var v interface{}
	if err := json.Unmarshal([]byte(arg), &v); err != nil {
		return nil, fmt.Errorf("%s: not JSON: %w", h.flag, err)
	}
	compact, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if string(compact) != arg {
		return nil, fmt.Errorf("%s: write it as compact JSON with sorted keys, as the chart renders it: %s", h.flag, compact)
	}
	return v, nil
}

func (o object) name() string {
	meta, _ := o["metadata"].(map[string]interface{})
	return fmt.Sprint(meta["name"])
}

// walk follows path to the map holding its last segment; a segment "name=x" picks
// the item named x of the list before it.
func walk(o object, path []string) (map[string]interface{}, string, error) {
	var cur interface{} = map[string]interface{}(o)
	for i, seg := range path[:len(path)-1] {
		if strings.HasPrefix(seg, "name=") {
			list, ok := cur.([]interface{})
			if !ok {
				return nil, "", fmt.Errorf("%s is not a list", strings.Join(path[:i], "."))
			}
			var found interface{}
			for _, item := range list {
				if m, ok := item.(map[string]interface{}); ok && m["name"] == seg[len("name="):] {
					found = m
				}
			}
			if found == nil {
				return nil, "", fmt.Errorf("no item %s in %s", seg, strings.Join(path[:i], "."))
			}
			cur = found
			continue
		}
		m, ok := cur.(map[string]interface{})
		if !ok {
			return nil, "", fmt.Errorf("no %s", strings.Join(path[:i+1], "."))
		}
		cur = m[seg]
	}
	m, ok := cur.(map[string]interface{})
	if !ok {
		return nil, "", fmt.Errorf("no %s", strings.Join(path, "."))
	}
	return m, path[len(path)-1], nil
}

func setValue(values map[string]interface{}, key string, v interface{}) {
	parts := strings.Split(key, ".")
	cur := values
	for _, p := range parts[:len(parts)-1] {
		next, ok := cur[p].(map[string]interface{})
		if !ok {
			next = map[string]interface{}{}
			cur[p] = next
		}
		cur = next
	}
	if _, exists := cur[parts[len(parts)-1]]; !exists {
		cur[parts[len(parts)-1]] = v
	}
}

var (
	blockLine   = regexp.MustCompile(`(?m)^((?:\s*- )?\s*)([A-Za-z]+): ` + marker + `block:([A-Za-z.]+)$`)
	scalarValue = regexp.MustCompile(marker + `scalar:([A-Za-z.]+)`)
	exprValue   = regexp.MustCompile(marker + `expr:([0-9]+)`)
	argLine     = regexp.MustCompile(`(?m)^(\s*)- ` + marker + `arg:([0-9]+)$`)
	gateLine    = regexp.MustCompile(`(?m)^(\s*)- ` + marker + `featuregates$`)
)

// template turns an object with markers into template text.
func template(o object) (string, error) {
	data, err := yaml.Marshal(o)
	if err != nil {
		return "", err
	}
	s := string(data)
	s = blockLine.ReplaceAllStringFunc(s, func(line string) string {
		m := blockLine.FindStringSubmatch(line)
		return fmt.Sprintf("%s%s:\n{{- toYaml .Values.%s | nindent %d }}", m[1], m[2], m[3], len(m[1])+2)
	})
	s = scalarValue.ReplaceAllString(s, "{{ toYaml .Values.$1 }}")
	s = exprValue.ReplaceAllStringFunc(s, func(m string) string {
		i, _ := strconv.Atoi(exprValue.FindStringSubmatch(m)[1])
		return "{{ " + holes[i].expr + " }}"
	})
	s = argLine.ReplaceAllStringFunc(s, func(line string) string {
		m := argLine.FindStringSubmatch(line)
		i, _ := strconv.Atoi(m[2])
		h := argHoles[i]
		if h.json {
			return fmt.Sprintf(`%s- {{ printf "%s=%%s" (toJson .Values.%s) | quote }}`, m[1], h.flag, h.value)
		}
		return fmt.Sprintf("%s- %s={{ .Values.%s }}", m[1], h.flag, h.value)
	})
	s = gateLine.ReplaceAllString(s, `{{- if .Values.featureGates }}
$1- --feature-gates={{ include "kruise-native.featureGates" $ }}
{{- end }}`)
	if strings.Contains(s, marker) {
		return "", fmt.Errorf("%s: a hole was not rendered:\n%s", o.id(), s)
	}
	return s, nil
}

// chartFiles builds the chart: every object of either mode in its own template, under
// a condition on etcd.mode where the modes differ.
func chartFiles(root string) (map[string]string, error) {
	version, err := readVersion(root)
	if err != nil {
		return nil, err
	}
	values := map[string]interface{}{}
	apiServices := map[string]string{}
	type variant struct {
		mode string
		text string
	}
	byID := map[string][]variant{}
	var order []string
	for _, m := range modes {
		objs, err := kustomize(root, m.dir)
		if err != nil {
			return nil, err
		}
		if err := checkImageTags(objs, m.dir, "v"+version); err != nil {
			return nil, err
		}
		var rest []object
		var apis strings.Builder
		for _, o := range objs {
			if o["kind"] != "APIService" {
				rest = append(rest, o)
				continue
			}
			data, err := yaml.Marshal(o)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(&apis, "---\n%s", data)
		}
		apiServices[m.name] = apis.String()
		objs = rest
		if err := punch(objs, m.name, values); err != nil {
			return nil, err
		}
		for _, o := range objs {
			text, err := template(o)
			if err != nil {
				return nil, err
			}
			id := o.id()
			if _, seen := byID[id]; !seen {
				order = append(order, id)
			}
			byID[id] = append(byID[id], variant{m.name, text})
		}
	}
	setValue(values, "etcd.mode", "cluster")
	for _, m := range modes {
		if apiServices[m.name] != apiServices["cluster"] || apiServices[m.name] == "" {
			return nil, fmt.Errorf("the APIServices differ between the etcd modes, or there are none")
		}
	}
	for k, v := range chartOnlyValues {
		setValue(values, k, v)
	}

	files := map[string]string{}
	names := map[string]bool{}
	for _, id := range order {
		vs := byID[id]
		var b strings.Builder
		b.WriteString(generatedHeader)
		// One text for every mode renders unconditionally; otherwise each distinct text
		// under the condition of the modes that have it.
		var texts []string
		modesOf := map[string][]string{}
		for _, v := range vs {
			if _, seen := modesOf[v.text]; !seen {
				texts = append(texts, v.text)
			}
			modesOf[v.text] = append(modesOf[v.text], strconv.Quote(v.mode))
		}
		if len(texts) == 1 && len(vs) == len(modes) {
			b.WriteString(texts[0])
		} else {
			for _, text := range texts {
				fmt.Fprintf(&b, "{{- if has .Values.etcd.mode (list %s) }}\n---\n%s{{- end }}\n", strings.Join(modesOf[text], " "), text)
			}
		}
		parts := strings.Split(id, "/")
		name := strings.ToLower(parts[0]) + "-" + strings.ReplaceAll(parts[2], ":", "-") + ".yaml"
		if names[name] {
			return nil, fmt.Errorf("two objects would be templates/%s", name)
		}
		names[name] = true
		files["templates/"+name] = b.String()
	}
	v, err := yaml.Marshal(values)
	if err != nil {
		return nil, err
	}
	files["values.yaml"] = valuesHeader + string(v)
	files["Chart.yaml"] = fmt.Sprintf(chartYAML, version, "v"+version)
	files["templates/_helpers.tpl"] = helpersTpl
	files["templates/validate.yaml"] = validateYAML
	files["templates/configmap-kruise-native-apiservices.yaml"] = apiServicesConfigMap(apiServices["cluster"])
	extra, err := extraFiles(root)
	if err != nil {
		return nil, err
	}
	for name, text := range extra {
		if _, dup := files[name]; dup {
			return nil, fmt.Errorf("two files would be %s", name)
		}
		files[name] = text
	}
	return files, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

const generatedHeader = "# Generated by hack/gen-helm-chart from artifacts/deploy; DO NOT EDIT.\n"

const valuesHeader = `# Generated by hack/gen-helm-chart from artifacts/deploy; DO NOT EDIT. The defaults are
# what the kustomize base has, so that the chart with these values installs exactly what
# kubectl apply -k artifacts/deploy does (etcd.mode: single = artifacts/deploy/overlays/single).
#
# etcd.mode: cluster (a 3-member etcd StatefulSet that the kruise-apiserver replicas share),
#   single (one kruise-apiserver with its embedded etcd on a PersistentVolumeClaim of
#   etcd.single.storage; apiserver.replicas does not apply) or external (the replicas share
#   an etcd you run: etcd.external.servers, its client URLs, and the client certificate
#   it trusts, in every certificates.mode: etcd.external.ca/cert/key (PEM, e.g.
#   --set-file etcd.external.cert=client.crt), or left empty and a Secret
#   kruise-apiserver-etcd-client-cert (ca.crt, tls.crt, tls.key) you create in kruise-system).
# podWebhook.failurePolicy / namespaceSelector / objectSelector: the pod webhook's failure
#   trade-off and scope (README.md, "Webhooks while kruise-apiserver is down"), passed to
#   kruise-apiserver, which registers its webhooks itself (--pod-webhook-*). Helm
#   merges maps: to replace a selector rather than add to it, null its other keys, e.g.
#   --set-json 'podWebhook.namespaceSelector={"matchExpressions":null,"matchLabels":{"sidecars":"required"}}'
# podWebhook.validatingFailurePolicy: the same for the validating Pod webhook entry
#   (PodUnavailableBudget guard, WorkloadSpread release), which uses the same selectors.
#   With Fail, narrow the scope first: no pod in scope can be deleted, evicted or updated
#   while kruise-apiserver is down.
# deletionWebhook.failurePolicy: the deletion-protection webhook's (Ignore; see README.md).
# featureGates: name: true|false, passed to kruise-apiserver, kruise-controller and
#   kruise-node-daemon (--feature-gates); every OpenKruise gate name, with the defaults and
#   refused states of README.md's "Feature gates" table.
# apiserver/controller/nodeDaemon.image: tagged v<VERSION> (the chart's appVersion), the
#   images make images builds; imagePullPolicy applies to all of them and the hooks.
# nodeDaemon.runtimeSocket: the CRI socket on the nodes; its directory is mounted.
#   containerd /run/containerd/containerd.sock, CRI-O /var/run/crio/crio.sock,
#   k3s /run/k3s/containerd/containerd.sock.
# certificates.mode (chart only): helm (default: the chart makes a CA and kruise-apiserver's
#   and etcd's certificates, and keeps them on upgrade), certManager (cert-manager issues
#   them, as artifacts/deploy/cert-manager) or external (you create the Secrets:
#   hack/gen-certs.sh --apply after the install).
# installHooks.timeout (chart only): how long the post-install hook waits for a Ready
#   kruise-apiserver, and then for the APIServices to be Available.
# installHooks.whenCRDsServe (chart only): fail (default) or leave. Where OpenKruise's CRDs
#   serve the Kruise groups the hook registers nothing; fail fails the release, leave
#   succeeds and leaves the switch to kubectl kruise migrate-from-crds (README, "Moving
#   from OpenKruise").
`

// chartYAML: version and appVersion come from VERSION (the default image tags are
// v<VERSION> too). kubeVersion: 1.30 is the first Kubernetes with admissionregistration
// v1 ValidatingAdmissionPolicy (the node daemon's pod writes are confined by one) and
// webhook matchConditions (the Pod webhook's call scope) both GA, and with the node
// name in pod-bound ServiceAccount tokens on by default (ServiceAccountTokenPodNodeInfo,
// which that policy and the NodeImage pull-secret check read).
const chartYAML = `# Generated by hack/gen-helm-chart from VERSION; DO NOT EDIT.
apiVersion: v2
name: kruise-native
description: Kruise Native - OpenKruise's workloads served by an aggregated API server
type: application
version: %s
appVersion: %q
# 1.30: ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1) and webhook
# matchConditions are GA, and pod-bound ServiceAccount tokens carry the node name
# (ServiceAccountTokenPodNodeInfo, on by default), which the node daemon's policy reads.
kubeVersion: ">=1.30.0-0"
`
