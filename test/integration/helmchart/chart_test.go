package helmchart

import (
	"context"
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

// With its default values the chart renders exactly the objects of the kustomize base,
// and with etcd.mode=single those of overlays/single, as the real kubectl renders them.
func TestChartRendersTheKustomizeBase(t *testing.T) {
	c := framework.Get(t)
	for _, tc := range []struct {
		mode, dir string
	}{
		{"cluster", "../../../artifacts/deploy"},
		{"single", "../../../artifacts/deploy/overlays/single"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			rendered, err := helm(t, "template", "kruise-native", chart, "--namespace", "kruise-system", "--set", "etcd.mode="+tc.mode)
			if err != nil {
				t.Fatal(err)
			}
			kustomized, _, err := c.Kubectl(t, "kustomize", tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			got, want := objects(t, rendered), objects(t, kustomized)
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
		"--set", "featureGates.SomeGate=true",
		"--set", "nodeDaemon.resources.limits.memory=1Gi",
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
		{"pod webhook failurePolicy", field("MutatingWebhookConfiguration/<nil>/kruise-pod-webhook", "webhooks", 0, "failurePolicy"), "Fail"},
		{"pod webhook scope", field("MutatingWebhookConfiguration/<nil>/kruise-pod-webhook", "webhooks", 0, "namespaceSelector"), map[string]interface{}{"matchLabels": map[string]interface{}{"sidecars": "required"}}},
		{"node daemon memory limit", field("DaemonSet/kruise-system/kruise-node-daemon", "spec", "template", "spec", "containers", 0, "resources", "limits", "memory"), "1Gi"},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.what, tc.got, tc.want)
		}
	}
	for _, d := range []string{"kruise-apiserver", "kruise-controller"} {
		args := field("Deployment/kruise-system/"+d, "spec", "template", "spec", "containers", 0, "args").([]interface{})
		if last := args[len(args)-1]; last != "--feature-gates=SomeGate=true" {
			t.Errorf("%s's last argument = %v, want --feature-gates=SomeGate=true", d, last)
		}
	}

	if _, err := helm(t, "template", "kruise-native", chart, "--set", "etcd.mode=sharded"); err == nil || !strings.Contains(err.Error(), "etcd.mode must be cluster or single") {
		t.Errorf("etcd.mode=sharded: %v, want the chart's refusal", err)
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
	}
}
