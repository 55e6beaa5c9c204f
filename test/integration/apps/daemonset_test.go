package apps

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// The documented Advanced DaemonSet manifests apply unchanged (into the namespace they
// name), are stored with OpenKruise's defaults, read back in both versions, and print
// OpenKruise's columns under both short names and the full resource name.
func TestAdvancedDaemonSetExamples(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	for _, name := range []string{"advanced-daemonset.yaml", "advanced-daemonset-lifecycle.yaml"} {
		f := filepath.Join(examplesDir(t), name)
		out := kubectl(t, "apply", "-f", f)
		if !strings.Contains(out, "daemonset.apps.kruise.io/") {
			t.Fatalf("kubectl apply -f %s printed %q, want daemonset.apps.kruise.io/...", name, out)
		}
		t.Cleanup(func() { _, _, _ = c.Kubectl(t, "delete", "--ignore-not-found", "-f", f) })
	}
	const ns = "default" // the namespace both manifests name

	alpha := kruiseClient(t).AppsV1alpha1().DaemonSets(ns)
	beta := kruiseClient(t).AppsV1beta1().DaemonSets(ns)

	// nginx: Standard with a node selector; everything else defaulted.
	a, err := alpha.Get(ctx, "nginx", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ru := a.Spec.UpdateStrategy.RollingUpdate
	if a.Spec.UpdateStrategy.Type != v1alpha1.RollingUpdateDaemonSetStrategyType || ru == nil ||
		ru.Type != v1alpha1.StandardRollingUpdateType || ru.MaxUnavailable.String() != "1" || ru.MaxSurge.String() != "0" ||
		ptr.Deref(ru.Partition, -1) != 0 || ru.Selector.MatchLabels["kubernetes.io/hostname"] != "node1" {
		t.Errorf("v1alpha1 nginx updateStrategy = %+v (rollingUpdate %+v), want RollingUpdate/Standard, maxUnavailable 1, maxSurge 0, partition 0, the node selector", a.Spec.UpdateStrategy, ru)
	}
	if ptr.Deref(a.Spec.RevisionHistoryLimit, 0) != 10 || a.Spec.BurstReplicas.String() != "250" {
		t.Errorf("revisionHistoryLimit %v, burstReplicas %v; want 10 and 250", a.Spec.RevisionHistoryLimit, a.Spec.BurstReplicas)
	}
	if p := a.Spec.Template.Spec; p.RestartPolicy != "Always" || p.DNSPolicy != "ClusterFirst" ||
		p.Containers[0].TerminationMessagePath == "" || p.Containers[0].Ports[0].Protocol != "TCP" {
		t.Errorf("pod template not defaulted as kube does: %+v", p)
	}

	// nginx-hook: in place, partition 10, paused, and a preDelete hook, in both versions.
	b, err := beta.Get(ctx, "nginx-hook", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bru := b.Spec.UpdateStrategy.RollingUpdate
	if bru == nil || bru.Type != v1beta1.InplaceRollingUpdateType || ptr.Deref(bru.Partition, 0) != 10 ||
		!ptr.Deref(bru.Paused, false) || bru.MaxUnavailable.String() != "1" {
		t.Errorf("v1beta1 nginx-hook rollingUpdate = %+v, want InPlaceIfPossible, partition 10, paused, maxUnavailable 1", bru)
	}
	if b.Spec.Lifecycle == nil || b.Spec.Lifecycle.PreDelete == nil ||
		b.Spec.Lifecycle.PreDelete.LabelsHandler["example.io/block-deleting"] != "true" {
		t.Errorf("v1beta1 nginx-hook lifecycle = %+v, want the preDelete labelsHandler", b.Spec.Lifecycle)
	}
	if b.Spec.ScaleStrategy != nil {
		t.Errorf("v1beta1 scaleStrategy = %+v, want none (no progressive-create-pod annotation)", b.Spec.ScaleStrategy)
	}

	// Protobuf reads the same object. (Its spec: the running controller may have
	// written status, and with it the resourceVersion, between the two reads.)
	pb, err := kruiseclient.NewForConfigOrDie(protobufConfig(t)).AppsV1beta1().DaemonSets(ns).Get(ctx, "nginx-hook", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if pb.UID != b.UID || !apiequality.Semantic.DeepEqual(pb.Spec, b.Spec) {
		t.Errorf("protobuf read differs from JSON: spec %+v vs %+v", pb.Spec, b.Spec)
	}

	// kubectl: both short names and the full name print OpenKruise's columns.
	want := []string{"NAME", "DESIRED", "CURRENT", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"}
	for _, name := range []string{"daemon", "ads", "daemonsets.apps.kruise.io"} {
		out := kubectl(t, "get", name, "-n", ns)
		if got := headerFields(out); !slices.Equal(got, want) {
			t.Fatalf("kubectl get %s header = %v, want %v\n%s", name, got, want, out)
		}
		for _, obj := range []string{"nginx", "nginx-hook"} {
			if !slices.ContainsFunc(strings.Split(out, "\n"), func(l string) bool { return countsRow(l, obj) }) {
				t.Errorf("kubectl get %s lacks %s with its five counts:\n%s", name, obj, out)
			}
		}
	}
	wide := kubectl(t, "get", "daemon", "nginx", "-n", ns, "-o", "wide")
	if got := headerFields(wide); !slices.Equal(got[len(got)-2:], []string{"CONTAINERS", "IMAGES"}) || !strings.Contains(wide, "nginx:1.7.9") {
		t.Fatalf("kubectl get daemon -o wide = %v, want CONTAINERS IMAGES with nginx:1.7.9\n%s", got, wide)
	}
	// `daemonsets` alone is kube's built-in kind (apps/v1), as the README says.
	if out, _, err := c.Kubectl(t, "get", "daemonsets", "-n", ns); err != nil || strings.Contains(out, "nginx-hook") {
		t.Errorf("kubectl get daemonsets should list kube's DaemonSets, not ours (err %v):\n%s", err, out)
	}

	out := kubectl(t, "api-resources", "--api-group=apps.kruise.io", "-o", "wide")
	if !slices.ContainsFunc(strings.Split(out, "\n"), func(l string) bool {
		// the kruise category alone: `all` is kube's core workloads only (kubectl get all
		// must not depend on an aggregated API being up)
		f := strings.Fields(l)
		return containsAll(l, "daemonsets", "daemon,ads", "DaemonSet") && len(f) > 0 && f[len(f)-1] == "kruise"
	}) {
		t.Errorf("kubectl api-resources lacks daemonsets with short names daemon,ads and the category kruise (and not all):\n%s", out)
	}
}

// kubectl explain reaches the Advanced DaemonSet by its short name or by the plain
// plural with --api-version. (kubectl resolves daemonsets.apps.kruise.io.<field> to kube's
// daemonsets.apps, the first group/resource that prefixes it, so that form explains
// apps/v1 DaemonSet; the README says so.)
func TestAdvancedDaemonSetExplain(t *testing.T) {
	c := framework.Get(t)
	var out string
	// The aggregator fetches OpenAPI after the APIService turns Available.
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		var err error
		out, _, err = c.Kubectl(t, "explain", "daemon.spec.updateStrategy")
		return err == nil, err
	})
	for _, want := range []string{"apps.kruise.io", "rollingUpdate", "type", "RollingUpdate", "OnDelete"} {
		if !strings.Contains(out, want) {
			t.Errorf("kubectl explain daemon.spec.updateStrategy lacks %q:\n%s", want, out)
		}
	}
	out = kubectl(t, "explain", "daemonsets.spec.updateStrategy.rollingUpdate", "--api-version=apps.kruise.io/v1beta1")
	for _, want := range []string{"apps.kruise.io", "rollingUpdateType", "maxUnavailable", "maxSurge", "partition", "paused", "selector", "InPlaceIfPossible"} {
		if !strings.Contains(out, want) {
			t.Errorf("kubectl explain daemonsets.spec.updateStrategy.rollingUpdate --api-version=apps.kruise.io/v1beta1 lacks %q:\n%s", want, out)
		}
	}
	out = kubectl(t, "explain", "ads.status", "--api-version=apps.kruise.io/v1alpha1")
	if !strings.Contains(out, "daemonSetHash") {
		t.Errorf("kubectl explain v1alpha1 ads.status lacks daemonSetHash:\n%s", out)
	}
}

// badDaemonSet is a valid v1alpha1 manifest named "bad" with one line replaced.
// countsRow: the line is obj's row of `kubectl get daemon`: its name, five counts
// (whatever the controller has reported by then) and its age.
func countsRow(line, obj string) bool {
	f := strings.Fields(line)
	if len(f) != 7 || f[0] != obj {
		return false
	}
	for _, n := range f[1:6] {
		if _, err := strconv.Atoi(n); err != nil {
			return false
		}
	}
	return true
}

func badDaemonSet(ns, apiVersion, old, replacement string) string {
	m := `apiVersion: apps.kruise.io/` + apiVersion + `
kind: DaemonSet
metadata:
  name: bad
  namespace: ` + ns + `
spec:
  selector:
    matchLabels:
      app: agent
  updateStrategy:
    rollingUpdate:
      rollingUpdateType: Standard
  template:
    metadata:
      labels:
        app: agent
    spec:
      containers:
      - name: agent
        image: nginx:1.7.9
`
	if !strings.Contains(m, old) {
		panic("badDaemonSet: no " + old)
	}
	return strings.Replace(m, old, replacement, 1)
}

// Bad input is refused with the field path, in the version the user wrote, and nothing is stored.
func TestAdvancedDaemonSetBadInput(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	const ru = "      rollingUpdateType: Standard\n"
	cases := []struct {
		name, apiVersion, old, replacement, wantPath string
	}{
		{"selector does not match the template", "v1alpha1", "        app: agent\n", "        app: other\n",
			"spec.template.metadata.labels"},
		{"maxSurge and maxUnavailable both 0", "v1alpha1", ru, ru + "      maxSurge: 0\n      maxUnavailable: 0\n",
			"spec.updateStrategy.rollingUpdate.maxUnavailable"},
		{"maxSurge and maxUnavailable both 0, v1beta1", "v1beta1", ru, ru + "      maxSurge: 0%\n      maxUnavailable: 0\n",
			"spec.updateStrategy.rollingUpdate.maxUnavailable"},
		{"unknown rollingUpdateType", "v1alpha1", ru, "      rollingUpdateType: Inplace\n",
			"spec.updateStrategy.rollingUpdate.rollingUpdateType"},
		{"partition below 0", "v1alpha1", ru, ru + "      partition: -1\n",
			"spec.updateStrategy.rollingUpdate.partition"},
		{"partition below 0, v1beta1", "v1beta1", ru, ru + "      partition: -1\n",
			"spec.updateStrategy.rollingUpdate.partition"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := kubectlStdin(t, badDaemonSet(ns, tc.apiVersion, tc.old, tc.replacement), "apply", "-f", "-")
			if err == nil {
				t.Fatalf("kubectl apply accepted it:\n%s", out)
			}
			if !strings.Contains(err.Error()+out, `DaemonSet "bad" is invalid`) || !strings.Contains(err.Error()+out, tc.wantPath) {
				t.Fatalf("kubectl apply: %v\n%s\nwant a 422 naming %s", err, out, tc.wantPath)
			}
			for _, get := range []func() error{
				func() error {
					_, err := kruiseClient(t).AppsV1alpha1().DaemonSets(ns).Get(ctx, "bad", metav1.GetOptions{})
					return err
				},
				func() error {
					_, err := kruiseClient(t).AppsV1beta1().DaemonSets(ns).Get(ctx, "bad", metav1.GetOptions{})
					return err
				},
			} {
				if err := get(); !apierrors.IsNotFound(err) {
					t.Fatalf("the refused DaemonSet was stored (get: %v)", err)
				}
			}
		})
	}
	// The manifest the cases start from is valid.
	if out, err := kubectlStdin(t, badDaemonSet(ns, "v1alpha1", ru, ru), "apply", "-f", "-"); err != nil {
		t.Fatalf("the base manifest is refused: %v\n%s", err, out)
	}
}

// A DaemonSet has no replicas: Cascading deletion protection counts the pods its
// status reports, and the rollback subresource is served.
func TestAdvancedDaemonSetDeletionProtectionAndRollback(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	m := strings.Replace(badDaemonSet(ns, "v1beta1", "  name: bad\n", "  name: agent\n  labels:\n    policy.kruise.io/delete-protection: Cascading\n"),
		"rollingUpdateType: Standard", "rollingUpdateType: InPlaceIfPossible", 1)
	if out, err := kubectlStdin(t, m, "apply", "-f", "-"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	client := kruiseClient(t).AppsV1beta1().DaemonSets(ns)

	if _, err := client.Rollback(ctx, "agent", &v1beta1.DaemonSetRollback{ToRevision: 5}, metav1.CreateOptions{}); !apierrors.IsBadRequest(err) {
		t.Errorf("rollback to a revision that does not exist: %v, want 400", err)
	}

	// The controller reports the pods it runs on the stack's nodes; the protection
	// counts them.
	scheduled := func(want func(int32) bool) {
		t.Helper()
		framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
			ds, err := client.Get(ctx, "agent", metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			s := ds.Status
			// Pods left on nodes the DaemonSet no longer wants count as misscheduled
			// until they are gone, and the protection counts them too.
			return s.ObservedGeneration == ds.Generation && want(s.DesiredNumberScheduled) &&
				s.CurrentNumberScheduled == s.DesiredNumberScheduled && s.NumberMisscheduled == 0, nil
		})
	}
	scheduled(func(n int32) bool { return n > 0 })
	err := client.Delete(ctx, "agent", metav1.DeleteOptions{})
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "status.desiredNumberScheduled") {
		t.Fatalf("delete of a Cascading-protected DaemonSet running pods: %v, want 403 naming status.desiredNumberScheduled", err)
	}
	// A node selector no node matches takes every pod away.
	patch := []byte(`{"spec":{"template":{"spec":{"nodeSelector":{"example.io/no-such-node":"true"}}}}}`)
	if _, err := client.Patch(ctx, "agent", types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	scheduled(func(n int32) bool { return n == 0 })
	if err := client.Delete(ctx, "agent", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete of a Cascading-protected DaemonSet running no pod: %v", err)
	}
}
