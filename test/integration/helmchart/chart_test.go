package helmchart

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const chart = "../../../artifacts/charts/kruise-native"

// helm runs _output/bin/helm against the stack with its caches in a temporary home.
func helm(t *testing.T, args ...string) (string, error) {
	t.Helper()
	c := framework.Get(t)
	bin := filepath.Join(c.BinDir, "helm")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("helm is not built (make tools, or hack/tools/build-helm.sh): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "KUBECONFIG="+c.Kubeconfig,
		"HELM_CACHE_HOME="+home+"/cache", "HELM_CONFIG_HOME="+home+"/config", "HELM_DATA_HOME="+home+"/data")
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("helm %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	return out.String(), nil
}

// objects parses a multi-document YAML stream into objects keyed kind/namespace/name.
func objects(t *testing.T, stream string) map[string]map[string]interface{} {
	t.Helper()
	dec := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(stream), 4096)
	out := map[string]map[string]interface{}{}
	for {
		var o map[string]interface{}
		if err := dec.Decode(&o); err != nil {
			if errors.Is(err, io.EOF) {
				return out
			}
			t.Fatal(err)
		}
		if o == nil {
			continue
		}
		meta, _ := o["metadata"].(map[string]interface{})
		id := fmt.Sprintf("%v/%v/%v", o["kind"], meta["namespace"], meta["name"])
		if _, dup := out[id]; dup {
			t.Fatalf("%s rendered twice", id)
		}
		out[id] = o
	}
}

// etcdCertObjects are the cert-manager component's objects for the etcd cluster.
var etcdCertObjects = map[string]bool{
	"Issuer/kruise-system/kruise-etcd-ca":                         true,
	"Certificate/kruise-system/kruise-etcd-ca":                    true,
	"Certificate/kruise-system/etcd-member-cert":                  true,
	"Certificate/kruise-system/kruise-apiserver-etcd-client-cert": true,
}

// chartOnly takes out of a rendering what only the chart has, checking it on the way:
// the install hooks and their RBAC (label app.kubernetes.io/component=install-hooks),
// whose ConfigMap holds the APIServices (put back as objects).
func chartOnly(t *testing.T, objs map[string]map[string]interface{}) {
	t.Helper()
	cm, ok := objs["ConfigMap/kruise-system/kruise-native-apiservices"]
	if !ok {
		t.Fatal("the chart has no ConfigMap kruise-native-apiservices")
	}
	data, _ := cm["data"].(map[string]interface{})
	apis := objects(t, fmt.Sprint(data["apiservices.yaml"]))
	for id, o := range objs {
		meta, _ := o["metadata"].(map[string]interface{})
		labels, _ := meta["labels"].(map[string]interface{})
		if labels["app.kubernetes.io/component"] == "install-hooks" {
			delete(objs, id)
		}
	}
	if len(apis) != 4 {
		t.Errorf("the ConfigMap holds %d APIServices, want 4", len(apis))
	}
	for id, o := range apis {
		objs[id] = o
	}
}

// The chart renders exactly the objects of the kustomize base (etcd.mode=cluster) or
// overlays/single, as the real kubectl renders them, with certificates.mode=external
// (the bases' own: Secrets made by hack/gen-certs.sh), plus what only the chart has
// (chartOnly); with certificates.mode=certManager, those of the base with the
// cert-manager component.
func TestChartRendersTheKustomizeBase(t *testing.T) {
	c := framework.Get(t)
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	withCertManager := func(t *testing.T, base string) string {
		dir := t.TempDir()
		// kustomize takes only relative paths to other kustomizations.
		rel := func(p string) string {
			r, err := filepath.Rel(dir, filepath.Join(root, p))
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		k := "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- " + rel(base) +
			"\ncomponents:\n- " + rel("artifacts/deploy/cert-manager") + "\n"
		if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(k), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for _, tc := range []struct {
		mode, certs, dir string
	}{
		{"cluster", "external", "artifacts/deploy"},
		{"single", "external", "artifacts/deploy/overlays/single"},
		{"cluster", "certManager", "artifacts/deploy"},
		{"single", "certManager", "artifacts/deploy/overlays/single"},
		{"external", "external", "artifacts/deploy/overlays/external-etcd"},
		{"external", "certManager", "artifacts/deploy/overlays/external-etcd"},
	} {
		t.Run(tc.mode+"/"+tc.certs, func(t *testing.T) {
			// The overlay's placeholder etcd, which the chart requires as a value.
			rendered, err := helm(t, "template", "kruise-native", chart, "--namespace", "kruise-system", "--set", "etcd.mode="+tc.mode,
				"--set", "certificates.mode="+tc.certs, "--set", "etcd.external.servers=https://etcd.example.com:2379")
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(root, tc.dir)
			if tc.certs == "certManager" {
				dir = withCertManager(t, tc.dir)
			}
			kustomized, _, err := c.Kubectl(t, "kustomize", dir)
			if err != nil {
				t.Fatal(err)
			}
			got, want := objects(t, rendered), objects(t, kustomized)
			chartOnly(t, got)
			if tc.certs == "certManager" {
				for id, o := range want {
					switch {
					case strings.HasPrefix(id, "APIService/"):
						// The hook gives the APIServices their caBundle from the
						// Secret, so the chart's have no cainjector annotation.
						delete(o["metadata"].(map[string]interface{}), "annotations")
					case tc.mode != "cluster" && etcdCertObjects[id]:
						// The component issues etcd's certificates in every variant;
						// the chart only where there is an etcd cluster to use them.
						delete(want, id)
					}
				}
				for id, o := range got {
					if strings.Contains(fmt.Sprint(o["apiVersion"]), "cert-manager.io/") {
						// The component's objects get no labels from the bases; the
						// chart labels them as the rest.
						meta := o["metadata"].(map[string]interface{})
						labels := meta["labels"].(map[string]interface{})
						if labels["app.kubernetes.io/part-of"] != "kruise-native" {
							t.Errorf("%s: labels %v", id, labels)
						}
						delete(meta, "labels")
					}
				}
			}
			for id, w := range want {
				if g, ok := got[id]; !ok {
					t.Errorf("the chart lacks %s", id)
				} else if !reflect.DeepEqual(g, w) {
					t.Errorf("the chart's %s differs from the kustomize base's:\nchart:     %v\nkustomize: %v", id, g, w)
				}
			}
			for id := range got {
				if _, ok := want[id]; !ok {
					t.Errorf("the chart has %s, which the kustomize base has not", id)
				}
			}
		})
	}
}

// Values reach the objects; a wrong etcd.mode is refused; helm lint passes.
func TestChartValuesAndLint(t *testing.T) {
	rendered, err := helm(t, "template", "kruise-native", chart, "--namespace", "kruise-system",
		"--set", "apiserver.image=example.com/kruise-apiserver:v1",
		"--set", "controller.replicas=3",
		"--set", "podWebhook.failurePolicy=Fail",
		"--set", "featureGates.KruisePodReadinessGate=false",
		"--set", "nodeDaemon.resources.limits.memory=1Gi",
		"--set", "nodeDaemon.runtimeSocket=/var/run/crio/crio.sock",
		"--set", "imagePullPolicy=Always",
		"--set", "podWebhook.validatingFailurePolicy=Fail",
		"--set", "installHooks.timeout=3m",
		"--set", "installHooks.whenCRDsServe=leave",
		"--set-json", `podWebhook.namespaceSelector={"matchExpressions":null,"matchLabels":{"sidecars":"required"}}`)
	if err != nil {
		t.Fatal(err)
	}
	objs := objects(t, rendered)
	field := func(id string, path ...interface{}) interface{} {
		var cur interface{} = objs[id]
		for _, p := range path {
			switch k := p.(type) {
			case string:
				cur = cur.(map[string]interface{})[k]
			case int:
				cur = cur.([]interface{})[k]
			}
		}
		return cur
	}
	for _, tc := range []struct {
		what string
		got  interface{}
		want interface{}
	}{
		{"apiserver image", field("Deployment/kruise-system/kruise-apiserver", "spec", "template", "spec", "containers", 0, "image"), "example.com/kruise-apiserver:v1"},
		{"controller replicas", field("Deployment/kruise-system/kruise-controller", "spec", "replicas"), float64(3)},
		{"node daemon memory limit", field("DaemonSet/kruise-system/kruise-node-daemon", "spec", "template", "spec", "containers", 0, "resources", "limits", "memory"), "1Gi"},
		{"node daemon runtime socket", field("DaemonSet/kruise-system/kruise-node-daemon", "spec", "template", "spec", "containers", 0, "env", 0), map[string]interface{}{"name": "RUNTIME_SOCKET", "value": "/var/run/crio/crio.sock"}},
		{"node daemon socket directory mount", field("DaemonSet/kruise-system/kruise-node-daemon", "spec", "template", "spec", "containers", 0, "volumeMounts", 0),
			map[string]interface{}{"name": "runtime-socket-dir", "mountPath": "/var/run/crio", "readOnly": true, "mountPropagation": "HostToContainer"}},
		{"node daemon socket directory", field("DaemonSet/kruise-system/kruise-node-daemon", "spec", "template", "spec", "volumes", 0, "hostPath"), map[string]interface{}{"path": "/var/run/crio", "type": "Directory"}},
		{"node daemon endpoint", field("DaemonSet/kruise-system/kruise-node-daemon", "spec", "template", "spec", "containers", 0, "args", 0), "--runtime-endpoint=unix://$(RUNTIME_SOCKET)"},
		{"apiserver pull policy", field("Deployment/kruise-system/kruise-apiserver", "spec", "template", "spec", "containers", 0, "imagePullPolicy"), "Always"},
		{"node daemon pull policy", field("DaemonSet/kruise-system/kruise-node-daemon", "spec", "template", "spec", "containers", 0, "imagePullPolicy"), "Always"},
		{"register hook", field("Job/kruise-system/kruise-native-register-apiservices", "metadata", "annotations", "helm.sh/hook"), "post-install,post-upgrade"},
		{"register hook args", field("Job/kruise-system/kruise-native-register-apiservices", "spec", "template", "spec", "containers", 0, "args"), []interface{}{"install-hook", "register-apiservices", "--timeout=3m", "--when-crds-serve=leave"}},
		{"register hook pull policy", field("Job/kruise-system/kruise-native-register-apiservices", "spec", "template", "spec", "containers", 0, "imagePullPolicy"), "Always"},
		{"pre-delete hook", field("Job/kruise-system/kruise-native-pre-delete", "metadata", "annotations", "helm.sh/hook"), "pre-delete"},
		{"pre-delete hook args", field("Job/kruise-system/kruise-native-pre-delete", "spec", "template", "spec", "containers", 0, "args"), []interface{}{"install-hook", "pre-delete"}},
		{"hook image", field("Job/kruise-system/kruise-native-pre-delete", "spec", "template", "spec", "containers", 0, "image"), field("Deployment/kruise-system/kruise-controller", "spec", "template", "spec", "containers", 0, "image")},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.what, tc.got, tc.want)
		}
	}
	// The webhooks' values are kruise-apiserver's registration flags.
	apiserverArgs := map[string]bool{}
	for _, a := range field("Deployment/kruise-system/kruise-apiserver", "spec", "template", "spec", "containers", 0, "args").([]interface{}) {
		apiserverArgs[fmt.Sprint(a)] = true
	}
	for _, want := range []string{
		"--pod-webhook-failure-policy=Fail",
		"--pod-webhook-validating-failure-policy=Fail",
		`--pod-webhook-namespace-selector={"matchLabels":{"sidecars":"required"}}`,
		`--pod-webhook-object-selector={"matchExpressions":[{"key":"kruise-native.io/pod-webhook","operator":"NotIn","values":["disabled"]}]}`,
		"--deletion-webhook-failure-policy=Ignore",
		"--pod-webhook-service=kruise-system/kruise-apiserver",
		"--pod-webhook-ca-file=/var/run/kruise-apiserver/serving-cert/ca.crt",
		"--pod-webhook-registration-owner=kruise-apiserver",
	} {
		if !apiserverArgs[want] {
			t.Errorf("kruise-apiserver lacks the argument %s: %v", want, apiserverArgs)
		}
	}
	for _, d := range []string{"Deployment/kruise-system/kruise-apiserver", "Deployment/kruise-system/kruise-controller",
		"DaemonSet/kruise-system/kruise-node-daemon"} {
		args := field(d, "spec", "template", "spec", "containers", 0, "args").([]interface{})
		if last := args[len(args)-1]; last != "--feature-gates=KruisePodReadinessGate=false" {
			t.Errorf("%s's last argument = %v, want --feature-gates=KruisePodReadinessGate=false", d, last)
		}
	}

	for _, bad := range []struct{ set, refusal string }{
		{"etcd.mode=sharded", "etcd.mode must be cluster, single or external"},
		{"etcd.mode=external", "etcd.mode=external needs etcd.external.servers"},
		{"certificates.mode=vault", "certificates.mode must be helm, certManager or external"},
		{"podWebhook.validatingFailurePolicy=Maybe", "podWebhook.validatingFailurePolicy must be Ignore or Fail"},
		{"deletionWebhook.failurePolicy=Never", "deletionWebhook.failurePolicy must be Ignore or Fail"},
		{"installHooks.whenCRDsServe=ignore", "installHooks.whenCRDsServe must be fail or leave"},
		{"imagePullPolicy=Sometimes", "imagePullPolicy must be"},
		{"nodeDaemon.runtimeSocket=containerd.sock", "nodeDaemon.runtimeSocket must be the absolute path"},
	} {
		if _, err := helm(t, "template", "kruise-native", chart, "--set", bad.set); err == nil || !strings.Contains(err.Error(), bad.refusal) {
			t.Errorf("%s: %v, want the chart's refusal", bad.set, err)
		}
	}
	if out, err := helm(t, "lint", chart, "--strict"); err != nil {
		t.Errorf("helm lint: %v\n%s", err, out)
	}
}

// The local stack's kube-apiserver accepts the chart: helm's server dry run (which
// checks every object against the server's schemas; --take-ownership because the stack
// already has some of the objects, such as the kruise-system Namespace and the
// APIServices, outside any release), and a server-side dry-run apply of every object.
func TestChartInstallDryRunServer(t *testing.T) {
	c := framework.Get(t)
	for _, mode := range []string{"cluster", "single"} {
		rendered, err := helm(t, "template", "kruise-native", chart, "--namespace", "kruise-system", "--set", "etcd.mode="+mode)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.KubectlStdin(t, rendered, "apply", "--dry-run=server", "-f", "-"); err != nil {
			t.Errorf("etcd.mode=%s: server dry-run apply: %v", mode, err)
		}
		// As artifacts/deploy/README.md says to install it: the release in the current
		// namespace, the objects in kruise-system.
		out, err := helm(t, "install", "kruise-native-"+mode, chart, "--namespace", "default", "--dry-run=server", "--take-ownership", "--set", "etcd.mode="+mode)
		if err != nil {
			t.Fatalf("etcd.mode=%s: %v", mode, err)
		}
		// Only the cluster mode runs an etcd StatefulSet.
		hasEtcd := strings.Contains(out, "kind: StatefulSet")
		if !strings.Contains(out, "STATUS: pending-install") || hasEtcd != (mode == "cluster") {
			t.Errorf("etcd.mode=%s: unexpected output:\n%.2000s", mode, out)
		}
		if !strings.Contains(out, "NOTES:") || !strings.Contains(out, "helm uninstall kruise-native-"+mode) {
			t.Errorf("etcd.mode=%s: no NOTES with the uninstall steps", mode)
		}
	}
}

// certificates.mode=helm (the default): the chart makes a CA and kruise-apiserver's
// certificate for its Service name, which kruise-apiserver registers its webhooks with
// (ca.crt of the Secret it mounts), and in the
// cluster mode makes etcd's certificates from a CA of their own.
func TestChartMakesItsCertificates(t *testing.T) {
	for _, mode := range []string{"cluster", "single"} {
		rendered, err := helm(t, "template", "kruise-native", chart, "--namespace", "kruise-system", "--set", "etcd.mode="+mode)
		if err != nil {
			t.Fatal(err)
		}
		objs := objects(t, rendered)
		secretPEM := func(name, key string) []byte {
			s, ok := objs["Secret/kruise-system/"+name]
			if !ok {
				t.Fatalf("%s: no Secret %s", mode, name)
			}
			b, err := base64.StdEncoding.DecodeString(fmt.Sprint(s["data"].(map[string]interface{})[key]))
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		ca := secretPEM("kruise-apiserver-cert", "ca.crt")
		verify(t, ca, secretPEM("kruise-apiserver-cert", "tls.crt"), "kruise-apiserver.kruise-system.svc", x509.ExtKeyUsageServerAuth)
		// kruise-apiserver registers its webhooks with that CA: the ca.crt of the Secret it
		// mounts.
		if !servingCAFileOf(t, objs["Deployment/kruise-system/kruise-apiserver"]) {
			t.Errorf("%s: kruise-apiserver's --pod-webhook-ca-file is not the ca.crt of Secret kruise-apiserver-cert", mode)
		}
		_, hasEtcd := objs["Secret/kruise-system/etcd-member-cert"]
		if hasEtcd != (mode == "cluster") {
			t.Errorf("%s: etcd-member-cert rendered: %v", mode, hasEtcd)
		}
		if mode == "cluster" {
			etcdCA := secretPEM("etcd-member-cert", "ca.crt")
			verify(t, etcdCA, secretPEM("etcd-member-cert", "tls.crt"), "etcd-1.etcd.kruise-system.svc", x509.ExtKeyUsageServerAuth)
			verify(t, etcdCA, secretPEM("etcd-member-cert", "tls.crt"), "", x509.ExtKeyUsageClientAuth)
			verify(t, etcdCA, secretPEM("kruise-apiserver-etcd-client-cert", "tls.crt"), "", x509.ExtKeyUsageClientAuth)
			if bytes.Equal(etcdCA, ca) {
				t.Error("etcd's CA is kruise-apiserver's: etcd would admit any certificate that CA signed")
			}
		}
	}
}

// servingCAFileOf reports whether the kruise-apiserver Deployment d registers its webhooks
// with the ca.crt of the Secret kruise-apiserver-cert, as it mounts it.
func servingCAFileOf(t *testing.T, d map[string]interface{}) bool {
	t.Helper()
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var dep appsv1.Deployment
	if err := json.Unmarshal(data, &dep); err != nil {
		t.Fatal(err)
	}
	spec := dep.Spec.Template.Spec
	var file string
	for _, a := range spec.Containers[0].Args {
		if f, ok := strings.CutPrefix(a, "--pod-webhook-ca-file="); ok {
			file = f
		}
	}
	for _, m := range spec.Containers[0].VolumeMounts {
		if filepath.Join(m.MountPath, "ca.crt") != file {
			continue
		}
		for _, v := range spec.Volumes {
			if v.Name == m.Name && v.Secret != nil && v.Secret.SecretName == "kruise-apiserver-cert" {
				return true
			}
		}
	}
	return false
}

// verify checks that certPEM chains to caPEM for dnsName (if any) and usage.
func verify(t *testing.T, caPEM, certPEM []byte, dnsName string, usage x509.ExtKeyUsage) {
	t.Helper()
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		t.Fatal("no CA certificate")
	}
	block, _ := pem.Decode(certPEM)
	if block == nil {
		t.Fatal("no certificate")
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cert.Verify(x509.VerifyOptions{Roots: pool, DNSName: dnsName, KeyUsages: []x509.ExtKeyUsage{usage}}); err != nil {
		t.Errorf("%s: %v", cert.Subject.CommonName, err)
	}
}
