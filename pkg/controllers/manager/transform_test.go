package manager

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

func TestStripManagedFields(t *testing.T) {
	pod := func() *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Labels: map[string]string{"a": "b"},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kruise-controller", Operation: metav1.ManagedFieldsOperationUpdate}}}}
	}
	for _, tc := range []struct {
		name string
		in   any
		pod  func(any) *corev1.Pod
	}{
		{"pod", pod(), func(o any) *corev1.Pod { return o.(*corev1.Pod) }},
		{"tombstone", cache.DeletedFinalStateUnknown{Key: "ns/p", Obj: pod()}, func(o any) *corev1.Pod {
			return o.(cache.DeletedFinalStateUnknown).Obj.(*corev1.Pod)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := stripManagedFields(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			p := tc.pod(out)
			if p.ManagedFields != nil {
				t.Errorf("managedFields kept: %v", p.ManagedFields)
			}
			if p.Name != "p" || p.Labels["a"] != "b" {
				t.Errorf("other metadata changed: %+v", p.ObjectMeta)
			}
		})
	}
	// not an object: passed through untouched
	if out, err := stripManagedFields("x"); err != nil || out != "x" {
		t.Errorf("non-object: %v, %v", out, err)
	}
}
