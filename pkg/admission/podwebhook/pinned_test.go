package podwebhook

import (
	"context"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
)

// revisionOf records v as a revision of its SidecarSet, as the controller does.
func revisionOf(t *testing.T, v *v1beta1.SidecarSet, name string, number int64, customVersion string) *appsv1.ControllerRevision {
	t.Helper()
	data, err := sidecarset.EncodeRevision(v)
	if err != nil {
		t.Fatal(err)
	}
	rev := &appsv1.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: sidecarset.RevisionNamespace,
		Labels: map[string]string{sidecarset.RevisionLabel: v.Name},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps.kruise.io/v1beta1", Kind: "SidecarSet",
			Name: v.Name, UID: v.UID, Controller: new(true)}}},
		Revision: number, Data: runtime.RawExtension{Raw: data}}
	if customVersion != "" {
		rev.Labels[pub.SidecarSetCustomVersionLabel] = customVersion
	}
	return rev
}

// injectionStrategy.revision injects what the named revision recorded (by name or by
// custom version); a pod the running rollout's canary selector picks gets the latest.
func TestPinnedRevision(t *testing.T) {
	old := storedSidecarSet(t, []byte(`{"apiVersion":"apps.kruise.io/v1alpha1","kind":"SidecarSet",
		"metadata":{"name":"log","uid":"ss-uid"},"spec":{"selector":{"matchLabels":{"app":"web"}},
		"containers":[{"name":"log","image":"log:v1"}]}}`))
	current := old.DeepCopy()
	current.Spec.Containers[0].Image = "log:v2"
	current.Spec.InjectionStrategy.Revision = &v1beta1.SidecarSetInjectRevision{
		RevisionName: new("log-1"), Policy: v1beta1.AlwaysSidecarSetInjectRevisionPolicy}
	current.Spec.UpdateStrategy.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"canary": "true"}}
	client := fake.NewClientset(revisionOf(t, old, "log-1", 1, "v1"), revisionOf(t, current, "log-2", 2, ""))

	cfg := webhookConfig(false, nil, current)
	cfg.PinnedRevision = func(ctx context.Context, ss *apps.SidecarSet) (*appsv1.ControllerRevision, error) {
		return pinnedRevision(ctx, client, ss)
	}
	w := newServer(cfg)
	pod := func(labels map[string]string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Labels: labels},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "app"}}}}
	}
	_, got := admit(t, w, "default", pod(map[string]string{"app": "web"}))
	if img := got.Spec.Containers[0].Image; img != "log:v1" {
		t.Fatalf("pinned by name: sidecar image %s, want log:v1", img)
	}
	oldHash, _ := sidecarset.Hash(toHub(t, old))
	if s := sidecarset.UpgradeSpecs(got, pub.SidecarSetHashAnnotation)["log"]; s.Hash != oldHash || s.ControllerRevision != "log-1" {
		t.Errorf("recorded %+v, want the pinned revision's hash and name", s)
	}

	_, canary := admit(t, w, "default", pod(map[string]string{"app": "web", "canary": "true"}))
	if img := canary.Spec.Containers[0].Image; img != "log:v2" {
		t.Errorf("canary pod: %s, want the latest log:v2", img)
	}

	current.Spec.InjectionStrategy.Revision = &v1beta1.SidecarSetInjectRevision{CustomVersion: new("v1")}
	if _, got := admit(t, w, "default", pod(map[string]string{"app": "web"})); got.Spec.Containers[0].Image != "log:v1" {
		t.Errorf("pinned by custom version: %s, want log:v1", got.Spec.Containers[0].Image)
	}
	current.Spec.InjectionStrategy.Revision = &v1beta1.SidecarSetInjectRevision{RevisionName: new("missing")}
	raw := []byte(`{"metadata":{"name":"web-1","labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"app"}]}}`)
	if _, err := w.Mutate(context.Background(), createRequest(raw)); err == nil {
		t.Error("a pinned revision that does not exist must be an error (the failurePolicy decides), not the latest injected")
	}
}
