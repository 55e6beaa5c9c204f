package sidecarset

import (
	"context"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// The documented SidecarSets apply unchanged with kubectl, are stored with
// OpenKruise's defaults, print MATCHED UPDATED READY AGE and read back as v1beta1.
func TestDocumentedSidecarSetsApply(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	kc := kruiseClient(t, nil)
	for _, file := range []string{"sidecarset.yaml", "sidecarset-hotupgrade.yaml", "sidecarset-policies.yaml"} {
		for _, doc := range exampleDocuments(t, file, "SidecarSet") {
			if _, err := c.KubectlStdin(t, doc, "apply", "-f", "-"); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
		}
	}
	for _, name := range []string{"test-sidecarset", "hotupgrade-sidecarset", "sidecarset"} {
		deleteSidecarSetAtEnd(t, name)
	}

	ss, err := kc.AppsV1alpha1().SidecarSets().Get(ctx, "test-sidecarset", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := ss.Spec.UpdateStrategy
	if s.Type != v1alpha1.RollingUpdateSidecarSetStrategyType || s.MaxUnavailable.String() != "1" || s.Partition.String() != "0" {
		t.Errorf("updateStrategy = %+v, want RollingUpdate, maxUnavailable 1, partition 0", s)
	}
	sc := ss.Spec.Containers[0]
	if sc.PodInjectPolicy != v1alpha1.BeforeAppContainerType || sc.UpgradeStrategy.UpgradeType != v1alpha1.SidecarContainerColdUpgrade ||
		sc.ShareVolumePolicy.Type != v1alpha1.ShareVolumePolicyDisabled || sc.ImagePullPolicy != corev1.PullAlways {
		t.Errorf("sidecar defaults = %+v", sc)
	}
	if ss.Generation != 1 || ss.Namespace != "" {
		t.Errorf("generation %d namespace %q, want 1 and cluster-scoped", ss.Generation, ss.Namespace)
	}

	hot, err := kc.AppsV1beta1().SidecarSets().Get(ctx, "hotupgrade-sidecarset", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if u := hot.Spec.Containers[0].UpgradeStrategy; u.UpgradeType != "HotUpgrade" || u.HotUpgradeEmptyImage != "openkruise/hotupgrade-sample:empty" {
		t.Errorf("v1beta1 upgradeStrategy = %+v", u)
	}

	policies, err := kc.AppsV1alpha1().SidecarSets().Get(ctx, "sidecarset", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if u := policies.Spec.UpdateStrategy; !u.Paused || u.Partition.String() != "10" || u.MaxUnavailable.String() != "20%" || u.Selector == nil {
		t.Errorf("policies updateStrategy = %+v, want it as written", u)
	}

	out := kubectl(t, "get", "sidecarsets")
	if h, want := headerFields(out), []string{"NAME", "MATCHED", "UPDATED", "READY", "AGE"}; !slices.Equal(h, want) {
		t.Fatalf("kubectl get sidecarsets header = %v, want %v\n%s", h, want, out)
	}
	if r := row(out, "test-sidecarset"); len(r) != 5 || r[1] != "0" || r[2] != "0" || r[3] != "0" {
		t.Errorf("test-sidecarset row = %v, want 0 0 0 before any pod", r)
	}
	if out := kubectl(t, "explain", "sidecarset.spec.containers.upgradeStrategy"); !strings.Contains(out, "hotUpgradeEmptyImage") {
		t.Errorf("kubectl explain does not know upgradeStrategy:\n%s", out)
	}
}

// Resuming a documented rollout that holds both partition and a canary selector is
// refused until one of them goes; while it is paused, the server warns.
func TestPartitionAndSelector(t *testing.T) {
	ctx := context.Background()
	w := &warnings{}
	kc := kruiseClient(t, w)
	ss := &v1alpha1.SidecarSet{
		ObjectMeta: metav1.ObjectMeta{Name: "canary-partition"},
		Spec: v1alpha1.SidecarSetSpec{
			Selector:   &metav1.LabelSelector{MatchLabels: map[string]string{"app": "canary-partition"}},
			Containers: []v1alpha1.SidecarContainer{{Container: corev1.Container{Name: "canary-partition", Image: "busybox:1.36"}}},
			UpdateStrategy: v1alpha1.SidecarSetUpdateStrategy{
				Paused:    true,
				Partition: new(intstr.FromInt32(2)),
				Selector:  &metav1.LabelSelector{MatchLabels: map[string]string{"canary": "true"}},
			},
		},
	}
	if _, err := kc.AppsV1alpha1().SidecarSets().Create(ctx, ss, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	deleteSidecarSetAtEnd(t, ss.Name)
	if got := w.take(); len(got) != 1 || !strings.Contains(got[0], "partition and selector cannot be used together") {
		t.Errorf("warnings = %q, want the partition/selector warning", got)
	}

	patch := []byte(`{"spec":{"updateStrategy":{"paused":false}}}`)
	_, err := kc.AppsV1alpha1().SidecarSets().Patch(ctx, ss.Name, "application/merge-patch+json", patch, metav1.PatchOptions{})
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "spec.updateStrategy.partition") {
		t.Fatalf("unpausing: want 422 at spec.updateStrategy.partition, got %v", err)
	}
	patch = []byte(`{"spec":{"updateStrategy":{"paused":false,"partition":0}}}`)
	if _, err := kc.AppsV1alpha1().SidecarSets().Patch(ctx, ss.Name, "application/merge-patch+json", patch, metav1.PatchOptions{}); err != nil {
		t.Fatalf("unpausing with partition 0: %v", err)
	}
}

// Bad input is refused with the field and the reason, and nothing is stored.
func TestInvalidSidecarSets(t *testing.T) {
	c := framework.Get(t)
	cases := []struct {
		name, manifest, field string
	}{
		{"no selector", `
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: invalid-sidecarset}
spec:
  containers: [{name: s, image: busybox}]`, "spec.selector"},
		{"no containers", `
apiVersion: apps.kruise.io/v1beta1
kind: SidecarSet
metadata: {name: invalid-sidecarset}
spec:
  selector: {matchLabels: {app: x}}`, "spec.containers"},
		{"hot upgrade without empty image", `
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: invalid-sidecarset}
spec:
  selector: {matchLabels: {app: x}}
  containers: [{name: s, image: envoy, upgradeStrategy: {upgradeType: HotUpgrade}}]`, "spec.containers[0].upgradeStrategy.hotUpgradeEmptyImage"},
		{"unknown inject policy", `
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: invalid-sidecarset}
spec:
  selector: {matchLabels: {app: x}}
  containers: [{name: s, image: busybox, podInjectPolicy: Middle}]`, "spec.containers[0].podInjectPolicy"},
		{"namespace and namespace selector", `
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: invalid-sidecarset}
spec:
  selector: {matchLabels: {app: x}}
  namespace: default
  namespaceSelector: {matchLabels: {env: prod}}
  containers: [{name: s, image: busybox}]`, "spec.namespaceSelector"},
		{"resourcesPolicy with a bad expression", `
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: invalid-sidecarset}
spec:
  selector: {matchLabels: {app: x}}
  containers:
  - name: s
    image: busybox
    resourcesPolicy:
      targetContainersMode: sum
      targetContainersNameRegex: ^main$
      resourcesExpr: {limits: {cpu: "max(cpu*50%"}}`, "spec.containers[0].resourcesPolicy.resourcesExpr.limits.cpu"},
		{"resourcesPolicy with a bad regex", `
apiVersion: apps.kruise.io/v1beta1
kind: SidecarSet
metadata: {name: invalid-sidecarset}
spec:
  selector: {matchLabels: {app: x}}
  containers:
  - name: s
    image: busybox
    resourcesPolicy:
      targetContainersMode: max
      targetContainersNameRegex: "^main(["
      resourcesExpr: {requests: {memory: "memory*10%"}}`, "spec.containers[0].resourcesPolicy.targetContainersNameRegex"},
		{"resourcesPolicy together with resources", `
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: invalid-sidecarset}
spec:
  selector: {matchLabels: {app: x}}
  containers:
  - name: s
    image: busybox
    resources: {limits: {cpu: "1"}}
    resourcesPolicy:
      targetContainersMode: sum
      targetContainersNameRegex: ^main$
      resourcesExpr: {limits: {cpu: "cpu"}}`, "spec.containers[0].resourcesPolicy: Forbidden: may not be set together with resources"},
		{"resourcesPolicy with an over-long expression", `
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: invalid-sidecarset}
spec:
  selector: {matchLabels: {app: x}}
  containers:
  - name: s
    image: busybox
    resourcesPolicy:
      targetContainersMode: sum
      targetContainersNameRegex: ^main$
      resourcesExpr: {limits: {cpu: "` + strings.Repeat("(", 600) + "cpu" + strings.Repeat(")", 600) + `"}}`,
			"spec.containers[0].resourcesPolicy.resourcesExpr.limits.cpu: Too long: may not be more than 1024 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.KubectlStdin(t, tc.manifest, "create", "-f", "-")
			if err == nil || !strings.Contains(err.Error(), "is invalid") || !strings.Contains(err.Error(), tc.field) {
				t.Fatalf("want Invalid naming %s, got %v", tc.field, err)
			}
			if _, err := kruiseClient(t, nil).AppsV1alpha1().SidecarSets().Get(context.Background(), "invalid-sidecarset", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				t.Fatalf("nothing must be stored, got %v", err)
			}
		})
	}
}
