package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// modes are the kustomizations the chart is generated from, by etcd.mode: the deploy
// base (an etcd cluster) and its single overlay (the embedded etcd).
var modes = []struct{ name, dir string }{
	{"cluster", "artifacts/deploy"},
	{"single", "artifacts/deploy/overlays/single"},
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
	for _, h := range holes {
		if h.only != "" && h.only != mode {
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
		setValue(values, h.value, def)
		kind := "scalar"
		if h.block {
			kind = "block"
		}
		parent[key] = marker + kind + ":" + h.value
	}
	for _, h := range featureGateArgs {
		o, ok := byID[h.kind+"/"+h.name]
		if !ok {
			continue // the single mode has no etcd; every mode has both of these
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
	values := map[string]interface{}{}
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

	files := map[string]string{}
	names := map[string]bool{}
	for _, id := range order {
		vs := byID[id]
		var b strings.Builder
		b.WriteString(generatedHeader)
		if len(vs) == len(modes) && vs[0].text == vs[1].text {
			b.WriteString(vs[0].text)
		} else {
			for _, v := range vs {
				fmt.Fprintf(&b, "{{- if eq .Values.etcd.mode %q }}\n---\n%s{{- end }}\n", v.mode, v.text)
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
	files["Chart.yaml"] = chartYAML
	files["templates/_helpers.tpl"] = helpersTpl
	files["templates/validate.yaml"] = validateYAML
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
# etcd.mode: cluster (a 3-member etcd StatefulSet that the kruise-apiserver replicas share)
#   or single (one kruise-apiserver with its embedded etcd on a PersistentVolumeClaim of
#   etcd.single.storage; apiserver.replicas does not apply).
# podWebhook.failurePolicy / namespaceSelector / objectSelector: the pod webhook's failure
#   trade-off and scope (artifacts/deploy/apiserver/pod-webhook.yaml explains both). Helm
#   merges maps: to replace a selector rather than add to it, null its other keys, e.g.
#   --set-json 'podWebhook.namespaceSelector={"matchExpressions":null,"matchLabels":{"sidecars":"required"}}'
# featureGates: name: true|false, passed to kruise-apiserver and kruise-controller.
`

const chartYAML = `# Generated by hack/gen-helm-chart; DO NOT EDIT.
apiVersion: v2
name: kruise-native
description: Kruise Native - OpenKruise's workloads served by an aggregated API server
type: application
version: 0.1.0
appVersion: "latest"
`

const helpersTpl = `{{/* Generated by hack/gen-helm-chart; DO NOT EDIT. */}}
{{/* featureGates as --feature-gates wants them: A=true,B=false, sorted. */}}
{{- define "kruise-native.featureGates" -}}
{{- $gates := list -}}
{{- range $name, $on := .Values.featureGates -}}
{{- $gates = append $gates (printf "%s=%t" $name $on) -}}
{{- end -}}
{{- join "," $gates -}}
{{- end -}}
`

const validateYAML = `{{/* Generated by hack/gen-helm-chart; DO NOT EDIT. Renders nothing: checks values. */}}
{{- if not (has .Values.etcd.mode (list "cluster" "single")) }}
{{- fail (printf "etcd.mode must be cluster or single, not %q" .Values.etcd.mode) }}
{{- end }}
{{- if not (has .Values.podWebhook.failurePolicy (list "Ignore" "Fail")) }}
{{- fail (printf "podWebhook.failurePolicy must be Ignore or Fail, not %q" .Values.podWebhook.failurePolicy) }}
{{- end }}
`
