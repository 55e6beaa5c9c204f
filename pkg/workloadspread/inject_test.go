package workloadspread

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// The priority kube's Priority admission derived from the template's class is cleared
// when a subset patch names another class (kube would refuse the create otherwise), and
// kept otherwise; a priority the patch sets itself is the patch's.
func TestInjectPriorityClassPatch(t *testing.T) {
	lower := corev1.PreemptLowerPriority
	never := corev1.PreemptNever
	admitted := func(class string) *corev1.Pod {
		return &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}},
			PriorityClassName: class, Priority: ptr.To[int32](0), PreemptionPolicy: &lower}}
	}
	cases := []struct {
		name           string
		pod            *corev1.Pod
		patch          string
		wantClass      string
		wantPriority   *int32
		wantPreemption *corev1.PreemptionPolicy
	}{
		{"class changed", admitted(""), `{"spec":{"priorityClassName":"high"}}`, "high", nil, nil},
		{"class changed from another", admitted("low"), `{"spec":{"priorityClassName":"high"}}`, "high", nil, nil},
		{"class unchanged", admitted("low"), `{"spec":{"priorityClassName":"low"}}`, "low", ptr.To[int32](0), &lower},
		{"no class in the patch", admitted(""), `{"metadata":{"labels":{"a":"b"}}}`, "", ptr.To[int32](0), &lower},
		{"patch sets its own priority and policy", admitted(""),
			`{"spec":{"priorityClassName":"high","priority":1000,"preemptionPolicy":"Never"}}`, "high", ptr.To[int32](1000), &never},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sub := &appsv1beta1.WorkloadSpreadSubset{Name: "a"}
			sub.Patch.Raw = []byte(tc.patch)
			out, err := Inject(tc.pod, "ws", sub)
			if err != nil {
				t.Fatal(err)
			}
			if out.Spec.PriorityClassName != tc.wantClass || !ptr.Equal(out.Spec.Priority, tc.wantPriority) ||
				!ptr.Equal(out.Spec.PreemptionPolicy, tc.wantPreemption) {
				t.Errorf("class %q priority %v preemption %v, want %q %v %v", out.Spec.PriorityClassName,
					ptr.Deref(out.Spec.Priority, -1), ptr.Deref(out.Spec.PreemptionPolicy, "<nil>"),
					tc.wantClass, ptr.Deref(tc.wantPriority, -1), ptr.Deref(tc.wantPreemption, "<nil>"))
			}
			if tc.pod.Spec.Priority == nil {
				t.Error("the input pod was modified")
			}
		})
	}
}

// OpenKruise's key marks a placed pod; a pod placed under the former key still reads
// as placed.
func TestPlacementAnnotationKeys(t *testing.T) {
	out, err := Inject(&corev1.Pod{}, "ws", &appsv1beta1.WorkloadSpreadSubset{Name: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Annotations["apps.kruise.io/matched-workloadspread"]; got != `{"name":"ws","subset":"a"}` {
		t.Errorf("apps.kruise.io/matched-workloadspread = %q", got)
	}
	old := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{
		"apps.kruise.io/workloadspread": `{"name":"ws","subset":"b"}`}}}
	if p, ok := PlacementOf(old); !ok || p != (Placement{Name: "ws", Subset: "b"}) {
		t.Errorf("PlacementOf(former key) = %+v, %v", p, ok)
	}
}
