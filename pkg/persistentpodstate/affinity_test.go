package persistentpodstate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

const (
	zone = "topology.kubernetes.io/zone"
	host = "kubernetes.io/hostname"
)

func in(key, value string) corev1.NodeSelectorRequirement {
	return corev1.NodeSelectorRequirement{Key: key, Operator: corev1.NodeSelectorOpIn, Values: []string{value}}
}

func TestInject(t *testing.T) {
	recorded := appsv1beta1.PodState{NodeName: "n1", NodeTopologyLabels: map[string]string{zone: "a", host: "n1"}}
	spec := func(required []string, preferred ...appsv1beta1.PreferredTopologyTerm) appsv1beta1.PersistentPodStateSpec {
		s := appsv1beta1.PersistentPodStateSpec{PreferredPersistentTopology: preferred}
		if required != nil {
			s.RequiredPersistentTopology = &appsv1beta1.NodeTopologyTerm{Keys: required}
		}
		return s
	}
	pref := func(w int32, keys ...string) appsv1beta1.PreferredTopologyTerm {
		return appsv1beta1.PreferredTopologyTerm{Weight: w, Preference: appsv1beta1.NodeTopologyTerm{Keys: keys}}
	}
	ownTerm := corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{in("disk", "ssd")}}
	ownPref := corev1.PreferredSchedulingTerm{Weight: 5, Preference: ownTerm}
	tests := []struct {
		name     string
		spec     appsv1beta1.PersistentPodStateSpec
		pod      string
		affinity *corev1.Affinity // the pod's own
		want     *corev1.Affinity // nil: the pod is left alone
	}{
		{"required zone makes the only term", spec([]string{zone}), "web-0", nil,
			&corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{in(zone, "a")}}}}}}},
		{"required keys all hold, ANDed into each own term", spec([]string{host, zone}), "web-0",
			&corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{ownTerm, {MatchExpressions: []corev1.NodeSelectorRequirement{in("disk", "hdd")}}}}}},
			&corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{
					{MatchExpressions: []corev1.NodeSelectorRequirement{in("disk", "ssd"), in(host, "n1"), in(zone, "a")}},
					{MatchExpressions: []corev1.NodeSelectorRequirement{in("disk", "hdd"), in(host, "n1"), in(zone, "a")}}}}}}},
		{"preferred zone appended to own preferences with its weight", spec(nil, pref(60, zone)), "web-0",
			&corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{ownPref}}},
			&corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{
				ownPref, {Weight: 60, Preference: corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{in(zone, "a")}}}}}}},
		{"required hostname and preferred zone (the documented example)", spec([]string{host}, pref(100, zone)), "web-0", nil,
			&corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
					NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{in(host, "n1")}}}},
				PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{
					{Weight: 100, Preference: corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{in(zone, "a")}}}}}}},
		{"a key the node did not carry adds nothing", spec([]string{zone, "rack"}), "web-0", nil,
			&corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{in(zone, "a")}}}}}}},
		{"only unrecorded keys: left alone", spec([]string{"rack"}, pref(10, "row")), "web-0", nil, nil},
		{"a pod never recorded (first creation): left alone", spec([]string{zone}), "web-1", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pps := &appsv1beta1.PersistentPodState{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: tc.spec,
				Status: appsv1beta1.PersistentPodStateStatus{PodStates: map[string]appsv1beta1.PodState{"web-0": recorded}}}
			pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: tc.pod}, Spec: corev1.PodSpec{Affinity: tc.affinity.DeepCopy()}}
			changed := Inject(pod, pps)
			if tc.want == nil {
				if changed || !cmp.Equal(pod.Spec.Affinity, tc.affinity) || pod.Annotations[InjectedAnnotation] != "" {
					t.Fatalf("pod changed: %v %+v %v", changed, pod.Spec.Affinity, pod.Annotations)
				}
				return
			}
			if !changed || pod.Annotations[InjectedAnnotation] != "web" {
				t.Errorf("changed %v, annotation %q", changed, pod.Annotations[InjectedAnnotation])
			}
			if d := cmp.Diff(tc.want, pod.Spec.Affinity); d != "" {
				t.Errorf("affinity (-want +got):\n%s", d)
			}
		})
	}
}
