package statefulset

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
)

// TestComputeStatusInPlaceUpdating: a pod patched for an in-place update whose old
// container still runs (its Ready condition is the old container's) is updated, not
// updated and ready (seen on a real node by test/cluster for CloneSet; kwok switches
// images at once).
func TestComputeStatusInPlaceUpdating(t *testing.T) {
	state := `{"revision":"r2","updateTimestamp":null,"lastContainerStatuses":{"nginx":{"imageID":"sha-old"}},"updateImages":true,"verticalUpdateOnly":false}`
	pod := func(name, statusImage, imageID string) *corev1.Pod {
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name,
				Labels:      map[string]string{pub.ControllerRevisionHashLabelKey: "r2"},
				Annotations: map[string]string{pub.InPlaceUpdateStateKey: state}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:new"}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning,
				Conditions:        []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
				ContainerStatuses: []corev1.ContainerStatus{{Name: "nginx", Ready: true, Image: statusImage, ImageID: imageID}}},
		}
	}
	st := &syncState{
		set: &v1beta1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "web", Generation: 2}},
		revs: &podworkload.Revisions{
			Update:  &appsv1.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: "r2"}},
			Current: &appsv1.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: "r1"}},
		},
		pods: []*corev1.Pod{
			pod("web-0", "docker.io/library/nginx:old", "sha-old"), // patched, old container still runs
			pod("web-1", "docker.io/library/nginx:new", "sha-new"),
		},
	}
	s := computeStatus(st, metav1.Now())
	if s.UpdatedReplicas != 2 || s.ReadyReplicas != 2 {
		t.Fatalf("updated %d ready %d, want 2 and 2", s.UpdatedReplicas, s.ReadyReplicas)
	}
	if s.UpdatedReadyReplicas != 1 || s.UpdatedAvailableReplicas != 1 {
		t.Fatalf("updatedReady %d updatedAvailable %d, want 1 and 1: the pod still running the old image counted",
			s.UpdatedReadyReplicas, s.UpdatedAvailableReplicas)
	}
}
