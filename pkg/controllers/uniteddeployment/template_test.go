package uniteddeployment

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

func zoneTerm(zone string) corev1.NodeSelectorTerm {
	return corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{{
		Key: "topology.kubernetes.io/zone", Operator: corev1.NodeSelectorOpIn, Values: []string{zone}}}}
}

func baseTemplate() *corev1.PodTemplateSpec {
	return &corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "ud"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:alpine"}}},
	}
}

func TestSubsetPodTemplate(t *testing.T) {
	spot := corev1.Toleration{Key: "spot", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}
	gpu := corev1.NodeSelectorRequirement{Key: "gpu", Operator: corev1.NodeSelectorOpExists}
	for _, tc := range []struct {
		name   string
		base   func(*corev1.PodTemplateSpec)
		subset v1beta1.Subset
		want   func(*corev1.PodTemplateSpec)
	}{
		{name: "label only", subset: v1beta1.Subset{Name: "a"},
			want: func(t *corev1.PodTemplateSpec) { t.Labels[SubsetLabel] = "a" }},
		{name: "node term becomes required affinity", subset: v1beta1.Subset{Name: "a", NodeSelectorTerm: zoneTerm("a")},
			want: func(t *corev1.PodTemplateSpec) {
				t.Labels[SubsetLabel] = "a"
				t.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
					NodeSelectorTerms: []corev1.NodeSelectorTerm{zoneTerm("a")}}}}
			}},
		{name: "node term joins every existing term",
			base: func(t *corev1.PodTemplateSpec) {
				t.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
					NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{gpu}}, {}}}}}
			},
			subset: v1beta1.Subset{Name: "b", NodeSelectorTerm: zoneTerm("b")},
			want: func(t *corev1.PodTemplateSpec) {
				t.Labels[SubsetLabel] = "b"
				z := zoneTerm("b").MatchExpressions[0]
				t.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
					NodeSelectorTerms: []corev1.NodeSelectorTerm{
						{MatchExpressions: []corev1.NodeSelectorRequirement{gpu, z}},
						{MatchExpressions: []corev1.NodeSelectorRequirement{z}},
					}}}}
			}},
		{name: "tolerations appended", base: func(t *corev1.PodTemplateSpec) {
			t.Spec.Tolerations = []corev1.Toleration{{Key: "x", Operator: corev1.TolerationOpExists}}
		}, subset: v1beta1.Subset{Name: "c", Tolerations: []corev1.Toleration{spot}},
			want: func(t *corev1.PodTemplateSpec) {
				t.Labels[SubsetLabel] = "c"
				t.Spec.Tolerations = []corev1.Toleration{{Key: "x", Operator: corev1.TolerationOpExists}, spot}
			}},
		{name: "patch merges labels and a container's resources by name",
			subset: v1beta1.Subset{Name: "c", Patch: runtime.RawExtension{Raw: []byte(
				`{"metadata":{"labels":{"pool":"spot"}},"spec":{"containers":[{"name":"nginx","resources":{"limits":{"cpu":"2"}}}]}}`)}},
			want: func(t *corev1.PodTemplateSpec) {
				t.Labels[SubsetLabel] = "c"
				t.Labels["pool"] = "spot"
				t.Spec.Containers[0].Resources.Limits = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}
			}},
		{name: "a patch cannot drop the subset label",
			subset: v1beta1.Subset{Name: "c", Patch: runtime.RawExtension{Raw: []byte(`{"metadata":{"labels":{"apps.kruise.io/subset-name":null}}}`)}},
			want:   func(t *corev1.PodTemplateSpec) { t.Labels[SubsetLabel] = "c" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := baseTemplate()
			if tc.base != nil {
				tc.base(base)
			}
			want := base.DeepCopy()
			tc.want(want)
			before := base.DeepCopy()
			got, err := subsetPodTemplate(base, &tc.subset)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("template (-want +got):\n%s", d)
			}
			if d := cmp.Diff(before, base); d != "" {
				t.Errorf("the base template was changed:\n%s", d)
			}
		})
	}
}

func TestSubsetPodTemplateBadPatch(t *testing.T) {
	_, err := subsetPodTemplate(baseTemplate(), &v1beta1.Subset{Name: "a", Patch: runtime.RawExtension{Raw: []byte(`{"spec":{"containers":"x"}}`)}})
	if err == nil {
		t.Fatal("a patch that does not fit the template must fail")
	}
}
