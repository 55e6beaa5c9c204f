package broadcastjob

import (
	"maps"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilrand "k8s.io/apimachinery/pkg/util/rand"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/nodeplacement"
)

// The labels OpenKruise puts on a job's pods: the job's name and UID. The UID one
// selects them.
const (
	labelJobName = apps.BroadcastJobNameLabel
	labelJobUID  = apps.BroadcastJobControllerUIDLabel
)

// selectorOf selects a job's pods by its UID label.
func selectorOf(job *v1beta1.BroadcastJob) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{labelJobUID: string(job.UID)}}
}

// newPod builds the job's pod for node, pinned to it and with the daemon tolerations
// (nodeplacement), so that it lands where eligibility said. Its name is chosen here so
// that its creation can be expected before it is sent.
func newPod(job *v1beta1.BroadcastJob, owner metav1.OwnerReference, node string) *corev1.Pod {
	tmpl := &job.Spec.Template
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:            job.Name + "-" + utilrand.String(5),
			Namespace:       job.Namespace,
			Labels:          maps.Clone(tmpl.Labels),
			Annotations:     maps.Clone(tmpl.Annotations),
			OwnerReferences: []metav1.OwnerReference{owner},
		},
		Spec: *tmpl.Spec.DeepCopy(),
	}
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels[labelJobName] = job.Name
	pod.Labels[labelJobUID] = string(job.UID)
	pod.Spec.Tolerations = nodeplacement.WithDaemonTolerations(&pod.Spec)
	pod.Spec.Affinity = nodeplacement.PinnedAffinity(pod.Spec.Affinity, node)
	return pod
}

// phaseOf is where a job pod stands. A restartPolicy OnFailure pod that has not
// finished but whose containers (init containers included) restarted more than
// restartLimit times in all is over its restart limit: the kubelet retries it in place,
// so its restarts are its failures. A restartPolicy Never pod fails only by its phase.
func phaseOf(pod *corev1.Pod, restartLimit int32) PodPhase {
	switch pod.Status.Phase {
	case corev1.PodSucceeded:
		return PodSucceeded
	case corev1.PodFailed:
		return PodFailed
	}
	if pod.Spec.RestartPolicy == corev1.RestartPolicyOnFailure && pod.DeletionTimestamp == nil && restarts(pod) > restartLimit {
		return PodOverRestartLimit
	}
	return PodActive
}

// restarts is the sum of the restart counts of a pod's containers.
func restarts(pod *corev1.Pod) int32 {
	var n int32
	for _, list := range [][]corev1.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses} {
		for _, s := range list {
			n += s.RestartCount
		}
	}
	return n
}
