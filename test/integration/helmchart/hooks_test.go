package helmchart

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/kruise-native/kruise-native/pkg/installhooks"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// The chart's pre-delete hook, with the chart's own RBAC for it (applied to the stack and
// used by impersonating the hook's ServiceAccount), against the stack's real
// kruise-apiserver: it refuses while a CloneSet exists and removes nothing; once the
// CloneSet is gone it removes the APIService it is given (one of the stack's, registered
// again at the end).
func TestPreDeleteHookWithItsRBAC(t *testing.T) {
	c := framework.Get(t)
	rendered, err := helm(t, "template", "kruise-native", chart, "--namespace", "kruise-system",
		"--show-only", "templates/serviceaccount-kruise-native-install-hooks.yaml",
		"--show-only", "templates/clusterrole-kruise-native-install-hooks.yaml",
		"--show-only", "templates/clusterrolebinding-kruise-native-install-hooks.yaml",
		"--show-only", "templates/role-kruise-native-install-hooks.yaml",
		"--show-only", "templates/rolebinding-kruise-native-install-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.KubectlStdin(t, rendered, "apply", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = c.KubectlStdin(t, rendered, "delete", "--ignore-not-found", "-f", "-") })

	// What the hooks do, as the hook's ServiceAccount may.
	const sa = "system:serviceaccount:kruise-system:kruise-native-install-hooks"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"list", "endpointslices.discovery.k8s.io", "-n", "kruise-system"}, "yes"},
		{[]string{"get", "secret/kruise-apiserver-cert", "-n", "kruise-system"}, "yes"},
		{[]string{"get", "secret/kruise-apiserver-etcd-client-cert", "-n", "kruise-system"}, "no"},
		{[]string{"create", "apiservices.apiregistration.k8s.io"}, "yes"},
		{[]string{"update", "apiservices.apiregistration.k8s.io/v1beta1.apps.kruise.io"}, "yes"},
		{[]string{"delete", "apiservices.apiregistration.k8s.io/v1alpha1.policy.kruise.io"}, "yes"},
		{[]string{"delete", "apiservices.apiregistration.k8s.io/v1.apps"}, "no"},
		{[]string{"list", "clonesets.apps.kruise.io", "--all-namespaces"}, "yes"},
		{[]string{"list", "resourcedistributions.apps.kruise.io"}, "yes"},
		{[]string{"delete", "clonesets.apps.kruise.io", "--all-namespaces"}, "no"},
	} {
		out, _, _ := c.Kubectl(t, append([]string{"auth", "can-i", "--as=" + sa}, tc.args...)...)
		if got := strings.TrimSpace(out); got != tc.want {
			t.Errorf("can-i %s: %s, want %s", strings.Join(tc.args, " "), got, tc.want)
		}
	}

	cfg := rest.CopyConfig(c.Config)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: sa}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The hook may delete only the four Kruise APIServices: it is given one of the
	// stack's, which the test registers again afterwards.
	const victim = "v1alpha1.policy.kruise.io"
	saved, _, err := c.Kubectl(t, "get", "apiservice", victim, "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]interface{}
	if err := json.Unmarshal([]byte(saved), &obj); err != nil {
		t.Fatal(err)
	}
	delete(obj, "status")
	meta := obj["metadata"].(map[string]interface{})
	for _, k := range []string{"resourceVersion", "uid", "creationTimestamp", "managedFields", "generation"} {
		delete(meta, k)
	}
	restore, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := c.KubectlStdin(t, string(restore), "apply", "-f", "-"); err != nil {
			t.Errorf("registering %s again: %v", victim, err)
			return
		}
		framework.WaitFor(t, time.Minute, func() (bool, error) {
			ok, _, err := c.APIServiceAvailable(context.Background(), victim)
			return ok, err
		})
	})
	manifests := filepath.Join(t.TempDir(), "apiservices.yaml")
	if err := os.WriteFile(manifests, []byte("apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata:\n  name: "+victim+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ns := c.CreateNamespace(t)
	const cloneSet = `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata:
  name: hook-check
spec:
  replicas: 0
  selector:
    matchLabels:
      app: hook-check
  template:
    metadata:
      labels:
        app: hook-check
    spec:
      containers:
      - name: app
        image: nginx:1.27
`
	if _, err := c.KubectlStdin(t, cloneSet, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	err = installhooks.PreDelete(ctx, dyn, manifests, &out)
	if !errors.Is(err, installhooks.ErrObjectsRemain) || !strings.Contains(out.String(), "clonesets.apps.kruise.io "+ns+"/hook-check") {
		t.Fatalf("with a CloneSet: err = %v, output:\n%s", err, out.String())
	}

	if _, _, err := c.Kubectl(t, "delete", "clonesets.apps.kruise.io", "hook-check", "-n", ns, "--wait"); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		list, err := dyn.Resource(cloneSetsGVR).Namespace(ns).List(ctx, metav1.ListOptions{})
		return err == nil && len(list.Items) == 0, err
	})
	if _, _, err := c.Kubectl(t, "get", "apiservice", victim); err != nil {
		t.Fatalf("the refused pre-delete removed %s: %v", victim, err)
	}
	out.Reset()
	if err := installhooks.PreDelete(ctx, dyn, manifests, &out); err != nil {
		t.Fatalf("without Kruise workloads: %v\n%s", err, out.String())
	}
	if _, stderr, err := c.Kubectl(t, "get", "apiservice", victim); err == nil || !strings.Contains(stderr, "NotFound") {
		t.Errorf("after the pre-delete hook, %s: %v %s, want NotFound", victim, err, stderr)
	}
}

var cloneSetsGVR = schema.GroupVersionResource{Group: "apps.kruise.io", Version: "v1alpha1", Resource: "clonesets"}
