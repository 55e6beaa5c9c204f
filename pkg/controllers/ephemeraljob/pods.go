package ephemeraljob

import (
	"sort"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// selects reports whether the job's selector matches the pod (an empty or invalid
// selector matches nothing).
func selects(job *v1alpha1.EphemeralJob, pod *corev1.Pod) bool {
	if pod.Namespace != job.Namespace || job.Spec.Selector == nil {
		return false
	}
	sel, err := metav1.LabelSelectorAsSelector(job.Spec.Selector)
	if err != nil || sel.Empty() {
		return false
	}
	return sel.Matches(labels.Set(pod.Labels))
}

// active: neither finished nor being deleted (kube's controller.IsPodActive).
func active(pod *corev1.Pod) bool {
	return pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed && pod.DeletionTimestamp == nil
}

// targetPods are the pods the job works on: the active pods it selects, oldest first
// (then by name), leaving out pods that already have an ephemeral container of one of
// the template's names that the job did not add, and at most spec.replicas of them.
func targetPods(job *v1alpha1.EphemeralJob, pods []*corev1.Pod) []*corev1.Pod {
	var matched []*corev1.Pod
	for _, p := range pods {
		if active(p) && selects(job, p) && !podState(job, p).conflict {
			matched = append(matched, p)
		}
	}
	sort.Slice(matched, func(i, j int) bool {
		a, b := matched[i], matched[j]
		if !a.CreationTimestamp.Equal(&b.CreationTimestamp) {
			return a.CreationTimestamp.Before(&b.CreationTimestamp)
		}
		return a.Name < b.Name
	})
	if r := job.Spec.Replicas; r != nil && int(*r) < len(matched) {
		matched = matched[:max(*r, 0)]
	}
	return matched
}

// containerState is what one pod's copy of the job's containers is doing.
type containerState int

const (
	stateWaiting containerState = iota
	stateRunning
	stateSucceeded
	stateFailed
	stateUnknown
)

// podView is the job's view of one pod.
type podView struct {
	// injected: the pod has an ephemeral container of the job's (by the
	// KRUISE_EJOB_ID env) for a name of the template.
	injected bool
	// conflict: the pod has an ephemeral container of a template name that another
	// job or user added.
	conflict bool
	state    containerState
}

// podState reads the pod's ephemeral containers and their statuses as OpenKruise
// does: any failed container fails the pod; all the template's containers exited 0
// is success; otherwise running if one runs, waiting if one waits or none has a
// status yet.
func podState(job *v1alpha1.EphemeralJob, pod *corev1.Pod) podView {
	names := map[string]bool{}
	for _, ec := range job.Spec.Template.EphemeralContainers {
		names[ec.Name] = true
	}
	var v podView
	for _, ec := range pod.Spec.EphemeralContainers {
		if !names[ec.Name] {
			continue
		}
		if ownedBy(job, &ec) {
			v.injected = true
		} else {
			v.conflict = true
		}
	}
	if !v.injected || v.conflict {
		return v
	}
	var running, waiting, succeeded int
	for i := range pod.Status.EphemeralContainerStatuses {
		s := &pod.Status.EphemeralContainerStatuses[i]
		if !names[s.Name] {
			continue
		}
		switch containerStatusState(s) {
		case stateFailed:
			v.state = stateFailed
			return v
		case stateRunning:
			running++
		case stateWaiting:
			waiting++
		case stateSucceeded:
			succeeded++
		}
	}
	switch {
	case succeeded > 0 && succeeded == len(names):
		v.state = stateSucceeded
	case running > 0:
		v.state = stateRunning
	case waiting > 0 || running+succeeded == 0:
		v.state = stateWaiting
	default:
		v.state = stateUnknown
	}
	return v
}

func containerStatusState(s *corev1.ContainerStatus) containerState {
	switch {
	case s.State.Terminated != nil && s.State.Terminated.ExitCode != 0:
		return stateFailed
	case s.State.Terminated != nil && !s.State.Terminated.FinishedAt.IsZero():
		return stateSucceeded
	case s.State.Running != nil:
		return stateRunning
	case s.State.Waiting != nil && s.State.Waiting.Reason == "RunContainerError":
		return stateFailed
	case s.State.Waiting != nil:
		return stateWaiting
	}
	return stateUnknown
}

// ownedBy: the container carries the job's UID in KRUISE_EJOB_ID.
func ownedBy(job *v1alpha1.EphemeralJob, ec *corev1.EphemeralContainer) bool {
	for _, e := range ec.Env {
		if e.Name == v1alpha1.EphemeralContainerEnvKey && e.Value == string(job.UID) {
			return true
		}
	}
	return false
}
