package persistentpodstate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

func TestRecord(t *testing.T) {
	nodes := map[string]map[string]string{"n1": {zone: "a", host: "n1", "other": "x"}, "n2": {zone: "b", host: "n2"}}
	nodeLabels := func(n string) (map[string]string, bool) { l, ok := nodes[n]; return l, ok }
	pod := func(name, node string, ready bool) *corev1.Pod {
		st := corev1.ConditionFalse
		if ready {
			st = corev1.ConditionTrue
		}
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: map[string]string{"ip": name + "-ip"}},
			Spec:   corev1.PodSpec{NodeName: node},
			Status: corev1.PodStatus{Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: st}}}}
	}
	old := map[string]appsv1beta1.PodState{
		"web-1": {NodeName: "n2", NodeTopologyLabels: map[string]string{zone: "b"}},
		"web-5": {NodeName: "n2", NodeTopologyLabels: map[string]string{zone: "b"}},
	}
	upTo3 := func(name string) bool { return name == "web-0" || name == "web-1" || name == "web-2" }
	pps := func(policy appsv1beta1.PersistentPodStateRetentionPolicyType) *appsv1beta1.PersistentPodState {
		return &appsv1beta1.PersistentPodState{ObjectMeta: metav1.ObjectMeta{Name: "web", Generation: 2},
			Spec: appsv1beta1.PersistentPodStateSpec{
				RequiredPersistentTopology:        &appsv1beta1.NodeTopologyTerm{Keys: []string{zone}},
				PreferredPersistentTopology:       []appsv1beta1.PreferredTopologyTerm{{Weight: 100, Preference: appsv1beta1.NodeTopologyTerm{Keys: []string{host}}}},
				PersistentPodAnnotations:          []appsv1beta1.PersistentPodAnnotation{{Key: "ip"}},
				PersistentPodStateRetentionPolicy: policy},
			Status: appsv1beta1.PersistentPodStateStatus{PodStates: old}}
	}
	pods := []*corev1.Pod{pod("web-0", "n1", true), pod("web-2", "n1", false)}
	web0 := appsv1beta1.PodState{NodeName: "n1", NodeTopologyLabels: map[string]string{zone: "a", host: "n1"}, Annotations: map[string]string{"ip": "web-0-ip"}}
	tests := []struct {
		name   string
		pps    *appsv1beta1.PersistentPodState
		target Target
		want   map[string]appsv1beta1.PodState
	}{
		{"ready pod recorded, unready one not, deleted pod within replicas kept, scaled-away one dropped (WhenScaled default)",
			pps(""), Target{Desired: upTo3}, map[string]appsv1beta1.PodState{"web-0": web0, "web-1": old["web-1"]}},
		{"WhenDeleted keeps the scaled-away record", pps(appsv1beta1.PersistentPodStateRetentionPolicyWhenDeleted), Target{Desired: upTo3},
			map[string]appsv1beta1.PodState{"web-0": web0, "web-1": old["web-1"], "web-5": old["web-5"]}},
		{"workload gone: every record dropped", pps(appsv1beta1.PersistentPodStateRetentionPolicyWhenDeleted), Target{Gone: true}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Record(tc.pps, tc.target, pods, nodeLabels)
			if got.ObservedGeneration != 2 {
				t.Errorf("observedGeneration %d", got.ObservedGeneration)
			}
			if d := cmp.Diff(tc.want, got.PodStates); d != "" {
				t.Errorf("podStates (-want +got):\n%s", d)
			}
		})
	}
}

func TestGenerated(t *testing.T) {
	sts := &metav1.ObjectMeta{Name: "web", Namespace: "ns", UID: "u1", Annotations: map[string]string{
		"kruise.io/auto-generate-persistent-pod-state": "true",
		"kruise.io/required-persistent-topology":       "topology.kubernetes.io/zone",
		"kruise.io/preferred-persistent-topology":      "kubernetes.io/hostname, rack",
	}}
	got := Generated(sts, "apps.kruise.io/v1beta1", "StatefulSet")
	want := appsv1beta1.PersistentPodStateSpec{
		TargetReference:             appsv1beta1.TargetReference{APIVersion: "apps.kruise.io/v1beta1", Kind: "StatefulSet", Name: "web"},
		RequiredPersistentTopology:  &appsv1beta1.NodeTopologyTerm{Keys: []string{zone}},
		PreferredPersistentTopology: []appsv1beta1.PreferredTopologyTerm{{Weight: 100, Preference: appsv1beta1.NodeTopologyTerm{Keys: []string{host, "rack"}}}},
	}
	if d := cmp.Diff(want, got.Spec); d != "" {
		t.Errorf("spec (-want +got):\n%s", d)
	}
	if !metav1.IsControlledBy(got, sts) || got.Name != "web" || got.Namespace != "ns" {
		t.Errorf("meta %+v", got.ObjectMeta)
	}
	sts.Annotations["kruise.io/auto-generate-persistent-pod-state"] = "false"
	if Generated(sts, "apps/v1", "StatefulSet") != nil {
		t.Error("generated without the annotation")
	}
	sts.Annotations = map[string]string{"kruise.io/auto-generate-persistent-pod-state": "true"}
	if Generated(sts, "apps/v1", "StatefulSet") != nil {
		t.Error("generated without any topology")
	}
}
