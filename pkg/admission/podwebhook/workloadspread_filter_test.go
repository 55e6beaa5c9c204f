package podwebhook

import (
	"context"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/workloadspread"
)

// targetFilter: only the target's pods its selector matches are placed; the others are
// created as they are, and take no slot.
func TestWorkloadSpreadTargetFilterPlacesSelectedPodsOnly(t *testing.T) {
	ws := zoneSpread(appsv1beta1.TargetReference{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: "web"})
	ws.Spec.TargetFilter = &appsv1beta1.TargetFilter{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"role": "worker"}}}
	store := &fakeSpreads{cached: ws, stored: ws.DeepCopy()}
	h := workloadSpreadHandlers(store, time.Now, 0)[0]
	for _, tc := range []struct {
		role   string
		placed bool
	}{{"worker", true}, {"ps", false}, {"", false}} {
		pod := ownedPod("web-"+tc.role, "apps.kruise.io/v1alpha1", "CloneSet", "web")
		if tc.role != "" {
			pod.Labels = map[string]string{"role": tc.role}
		}
		if err := h.Mutate(context.Background(), &admissionv1.AdmissionRequest{}, pod); err != nil {
			t.Fatal(err)
		}
		if _, ok := workloadspread.PlacementOf(pod); ok != tc.placed {
			t.Errorf("role %q: placed %v, want %v (%v)", tc.role, ok, tc.placed, pod.Annotations)
		}
	}
	if n := len(store.stored.Status.SubsetStatuses[0].CreatingPods); n != 1 {
		t.Errorf("%d slots taken, want 1 (the worker's)", n)
	}
}
