package podwebhook

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/persistentpodstate"
)

type fakePodStates []*appsv1beta1.PersistentPodState

func (f fakePodStates) List(ns string) ([]*appsv1beta1.PersistentPodState, error) {
	var out []*appsv1beta1.PersistentPodState
	for _, p := range f {
		if p.Namespace == ns {
			out = append(out, p)
		}
	}
	return out, nil
}
func (fakePodStates) Synced() bool { return true }

func ownedBy(apiVersion, kind, name string, controller bool) *corev1.Pod {
	pod := labelled(nil)
	pod.Name = "web-0"
	pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: apiVersion, Kind: kind, Name: name, UID: "u", Controller: ptr.To(controller)}}
	return pod
}

// The clause of a PersistentPodState picks the creates of its StatefulSet's pods in
// its namespace, and the handler completes exactly the pods of the named group.
func TestPersistentPodStateHandler(t *testing.T) {
	pps := &appsv1beta1.PersistentPodState{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns"},
		Spec: appsv1beta1.PersistentPodStateSpec{
			TargetReference:            appsv1beta1.TargetReference{APIVersion: "apps.kruise.io/v1beta1", Kind: "StatefulSet", Name: "web"},
			RequiredPersistentTopology: &appsv1beta1.NodeTopologyTerm{Keys: []string{"topology.kubernetes.io/zone"}}},
		Status: appsv1beta1.PersistentPodStateStatus{PodStates: map[string]appsv1beta1.PodState{
			"web-0": {NodeName: "n1", NodeTopologyLabels: map[string]string{"topology.kubernetes.io/zone": "b"}}}}}
	_, expr, ok := PersistentPodStateCallClause(pps)
	if !ok {
		t.Fatal("want a clause")
	}
	// ObjectCallClauses sees the hub: the same clause.
	hub := &apps.PersistentPodState{ObjectMeta: pps.ObjectMeta, Spec: apps.PersistentPodStateSpec{
		TargetReference: apps.TargetReference{Name: "web"}}}
	if got := ObjectCallClauses(hub)[Mutating]["persistentpodstate/ns/web"]; got != expr {
		t.Errorf("the hub's clause %q differs from %q", got, expr)
	}
	h := persistentPodStateHandler(fakePodStates{pps})
	for name, tc := range map[string]struct {
		ns           string
		pod          *corev1.Pod
		clause, give bool
	}{
		"Advanced StatefulSet pod":          {"ns", ownedBy("apps.kruise.io/v1alpha1", "StatefulSet", "web", true), true, true},
		"kube StatefulSet of the same name": {"ns", ownedBy("apps/v1", "StatefulSet", "web", true), true, false},
		"another StatefulSet":               {"ns", ownedBy("apps.kruise.io/v1beta1", "StatefulSet", "db", true), false, false},
		"not the controller":                {"ns", ownedBy("apps.kruise.io/v1beta1", "StatefulSet", "web", false), false, false},
		"another namespace":                 {"other", ownedBy("apps.kruise.io/v1beta1", "StatefulSet", "web", true), false, false},
		"no owner":                          {"ns", labelled(nil), false, false},
	} {
		t.Run(name, func(t *testing.T) {
			clause := kubeMatches(t, expr, tc.ns, tc.pod)
			if clause != tc.clause {
				t.Errorf("clause = %t, want %t", clause, tc.clause)
			}
			pod := tc.pod.DeepCopy()
			pod.Namespace = tc.ns
			if err := h.Mutate(context.Background(), nil, pod); err != nil {
				t.Fatal(err)
			}
			given := pod.Annotations[persistentpodstate.InjectedAnnotation] == "web"
			if given != tc.give {
				t.Errorf("affinity given = %t, want %t (%+v)", given, tc.give, pod.Spec.Affinity)
			}
			if given && !clause {
				t.Error("the handler changes a pod its clause does not send")
			}
		})
	}
}
