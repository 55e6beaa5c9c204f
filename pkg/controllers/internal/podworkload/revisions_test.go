package podworkload

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/claimtemplate"
	"github.com/kruise-native/kruise-native/pkg/revisiondata"
)

func imageRevision(t *testing.T, name, image, claimHash string) *appsv1.ControllerRevision {
	t.Helper()
	data, err := revisiondata.Encode(&corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: image}}}})
	if err != nil {
		t.Fatal(err)
	}
	return &appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: map[string]string{claimtemplate.HashAnnotation: claimHash}},
		Data:       runtime.RawExtension{Raw: data},
	}
}

// TestInPlaceSpecVeto: an image change is done in place unless the workload's
// InPlaceAllowed says the two revisions differ otherwise (a CloneSet's claim
// templates), also when a rollout goes the other way (Toward).
func TestInPlaceSpecVeto(t *testing.T) {
	r1 := imageRevision(t, "r1", "nginx:1", "111")
	r2 := imageRevision(t, "r2", "nginx:2", "222")
	r3 := imageRevision(t, "r3", "nginx:3", "111")
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Labels: map[string]string{pub.ControllerRevisionHashLabelKey: "r1"}}}
	cases := []struct {
		name   string
		veto   func(from, to *appsv1.ControllerRevision) bool
		update *appsv1.ControllerRevision
		want   bool
	}{
		{"no veto: in place", nil, r2, true},
		{"claims differ: recreate", claimtemplate.InPlaceAllowed, r2, false},
		{"claims alike: in place", claimtemplate.InPlaceAllowed, r3, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			revs := &Revisions{Update: tc.update, Current: r1, All: []*appsv1.ControllerRevision{r1, r2, r3}, inPlaceAllowed: tc.veto}
			spec, err := revs.InPlaceSpec(pod)
			if err != nil {
				t.Fatal(err)
			}
			if (spec != nil) != tc.want {
				t.Errorf("in place: %v, want %v", spec != nil, tc.want)
			}
		})
	}

	// Back from r2 to r1 (a partition rollback) crosses the same claim change.
	revs := &Revisions{Update: r2, Current: r1, All: []*appsv1.ControllerRevision{r1, r2}, inPlaceAllowed: claimtemplate.InPlaceAllowed}
	updated := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Labels: map[string]string{pub.ControllerRevisionHashLabelKey: "r2"}}}
	if spec, err := revs.Toward(r1).InPlaceSpec(updated); err != nil || spec != nil {
		t.Errorf("rollback across a claim change: spec %v, err %v; want recreate", spec, err)
	}
}
