package daemonset

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
)

// The rollout's old revision is the one most non-updated pods run; with every pod
// updated (or only pods of revisions that are gone) it is the update revision.
func TestOldRevision(t *testing.T) {
	rev := func(name string) *appsv1.ControllerRevision {
		return &appsv1.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: name}}
	}
	r1, r2, r3 := rev("r1"), rev("r2"), rev("r3")
	revs := &podworkload.Revisions{Update: r3, All: []*appsv1.ControllerRevision{r1, r2, r3}}
	pod := func(rev string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{pub.ControllerRevisionHashLabelKey: rev}}}
	}
	for _, tc := range []struct {
		name string
		pods []*corev1.Pod
		want string
	}{
		{"all updated", []*corev1.Pod{pod("r3"), pod("r3")}, "r3"},
		{"no pods", nil, "r3"},
		{"one old revision", []*corev1.Pod{pod("r3"), pod("r2")}, "r2"},
		{"the most common old", []*corev1.Pod{pod("r1"), pod("r2"), pod("r1"), pod("r3")}, "r1"},
		{"a gone revision", []*corev1.Pod{pod("r0"), pod("r3")}, "r3"},
	} {
		if got := oldRevision(revs, tc.pods); got.Name != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got.Name, tc.want)
		}
	}
}
