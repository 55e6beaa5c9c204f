package cloneset

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
)

// TestComputeStatusInPlaceUpdating: right after the patch that updates a pod in place
// (new image, new revision label) its Ready condition still describes the old container
// until kubelet replaces it. Such a pod is updated but not updated-and-ready: status must
// not report the rollout done while a container still runs the old image (seen on a real
// node by test/cluster; kwok switches images at once).
func TestComputeStatusInPlaceUpdating(t *testing.T) {
	ready := []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	pod := func(name, revision, statusImage, imageID string, state string) *corev1.Pod {
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{pub.ControllerRevisionHashLabelKey: revision}},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:new"}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: ready,
				ContainerStatuses: []corev1.ContainerStatus{{Name: "nginx", Ready: true, Image: statusImage, ImageID: imageID}}},
		}
		if state != "" {
			p.Annotations = map[string]string{pub.InPlaceUpdateStateKey: state}
		}
		return p
	}
	state := `{"revision":"r2","updateTimestamp":null,"lastContainerStatuses":{"nginx":{"imageID":"sha-old"}},"updateImages":true,"verticalUpdateOnly":false}`
	st := &syncState{
		cs: &v1beta1.CloneSet{ObjectMeta: metav1.ObjectMeta{Name: "cs", Generation: 2}},
		revs: &podworkload.Revisions{
			Update:  &appsv1.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: "r2"}},
			Current: &appsv1.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: "r1"}},
		},
		pods: []*corev1.Pod{
			pod("switching", "r2", "docker.io/library/nginx:old", "sha-old", state), // patched, old container still runs
			pod("switched", "r2", "docker.io/library/nginx:new", "sha-new", state),  // new container runs
			pod("old", "r1", "docker.io/library/nginx:old", "sha-old", ""),
		},
	}
	st.pods[0].Spec.Containers[0].Image = "nginx:new"
	st.pods[2].Spec.Containers[0].Image = "nginx:old"
	s := computeStatus(st, metav1.Now(), nil)
	if s.Replicas != 3 || s.ReadyReplicas != 3 || s.UpdatedReplicas != 2 {
		t.Fatalf("replicas %d ready %d updated %d, want 3 3 2", s.Replicas, s.ReadyReplicas, s.UpdatedReplicas)
	}
	if s.UpdatedReadyReplicas != 1 || s.UpdatedAvailableReplicas != 1 {
		t.Fatalf("updatedReady %d updatedAvailable %d, want 1 and 1: the pod whose container still runs the old image counted",
			s.UpdatedReadyReplicas, s.UpdatedAvailableReplicas)
	}
}
