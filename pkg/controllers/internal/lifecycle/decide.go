package lifecycle

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

func preDelete(lc *pub.Lifecycle) *pub.LifecycleHook {
	if lc == nil {
		return nil
	}
	return lc.PreDelete
}

func inPlaceUpdate(lc *pub.Lifecycle) *pub.LifecycleHook {
	if lc == nil {
		return nil
	}
	return lc.InPlaceUpdate
}

func preNormal(lc *pub.Lifecycle) *pub.LifecycleHook {
	if lc == nil {
		return nil
	}
	return lc.PreNormal
}

// DecideDelete says whether the workload may delete pod now. When the preDelete hook
// holds the pod (HookHolds) it may not: step moves the pod to PreparingDelete (marking
// it not ready if the hook says so); apply it (nil from Apply: already done) and ask
// again on a later sync. Once the owner removed every hook label and finalizer, the
// pod is deleted, whatever its state. Without a preDelete hook: proceed, no step.
func DecideDelete(lc *pub.Lifecycle, pod *corev1.Pod) (proceed bool, step *Step) {
	hook := preDelete(lc)
	if !HookHolds(hook, pod) {
		return true, nil
	}
	return false, &Step{To: pub.LifecycleStatePreparingDelete, MarkNotReady: hook.MarkPodNotReady}
}

// CancelDelete returns the step that takes a PreparingDelete pod back when the
// workload no longer wants to delete it (scaled up again): to PreparingNormal if a
// preNormal hook still has to let it through, else straight to Normal. It returns nil
// for a pod in another state, and when a hook marks pods not ready: as in OpenKruise,
// a pod that may have been taken out of service is not brought back.
func CancelDelete(lc *pub.Lifecycle, pod *corev1.Pod) *Step {
	if State(pod) != pub.LifecycleStatePreparingDelete || NeedsReadinessGate(lc) {
		return nil
	}
	if h := preNormal(lc); h != nil && !IsHookSatisfied(h, pod) {
		return &Step{To: pub.LifecycleStatePreparingNormal}
	}
	return &Step{To: pub.LifecycleStateNormal}
}

// DecideInPlaceUpdate says whether the workload may update pod in place now.
//
//   - proceed with a step: fold the step into the in-place update patch (SetState on
//     the pod to patch; it only changes the label and annotation), so Updating costs
//     no write. It comes with an inPlaceUpdate hook, or when the pod is in an update
//     state already; a pod of a workload without hooks gets no step: no label change.
//   - no proceed, with a step: the hook holds the pod; apply the step (PreparingUpdate,
//     not ready if the hook says so) as its own write and ask again on a later sync.
//     An Updated pod (its previous update's hook not answered yet) first gets the
//     hook's labels and finalizers back, so the owner runs the hook for this update.
//   - no proceed, no step: the pod is PreparingDelete, or in a state this package does
//     not know; leave it alone (OpenKruise refuses to update it too).
func DecideInPlaceUpdate(lc *pub.Lifecycle, pod *corev1.Pod) (proceed bool, step *Step) {
	hook := inPlaceUpdate(lc)
	state := State(pod)
	switch state {
	case "", pub.LifecycleStatePreparingNormal, pub.LifecycleStateNormal, pub.LifecycleStatePreparingUpdate:
		if HookHolds(hook, pod) {
			return false, &Step{To: pub.LifecycleStatePreparingUpdate, MarkNotReady: hook.MarkPodNotReady}
		}
	case pub.LifecycleStateUpdated:
		if hook != nil {
			return false, &Step{To: pub.LifecycleStatePreparingUpdate, MarkNotReady: hook.MarkPodNotReady, Rehook: hook}
		}
	case pub.LifecycleStateUpdating:
	default:
		return false, nil
	}
	switch {
	case hook != nil,
		state == pub.LifecycleStatePreparingUpdate, state == pub.LifecycleStateUpdating, state == pub.LifecycleStateUpdated:
		return true, &Step{To: pub.LifecycleStateUpdating}
	}
	return true, nil
}

// DecideNormal returns the step a pod is due on a sync, or nil:
//
//   - PreparingNormal → Normal once the preNormal hook is satisfied (all its labels and
//     finalizers present), or at once without a preNormal hook;
//   - Updating, and PreparingUpdate of a pod that needs no update any more (rolled
//     back), once upToDate → Updated while the inPlaceUpdate hook is not satisfied,
//     else Normal;
//   - Updated → Normal once the inPlaceUpdate hook is satisfied again, or at once
//     without the hook.
//
// upToDate: the pod runs the revision the workload wants and its in-place update, if
// any, has completed (inplaceupdate.CheckCompleted). Leaving the update states drops
// the pod's update hold on KruisePodReady (see Transition).
func DecideNormal(lc *pub.Lifecycle, pod *corev1.Pod, upToDate bool) *Step {
	hook := inPlaceUpdate(lc)
	mark := marks(hook)
	switch State(pod) {
	case pub.LifecycleStatePreparingNormal:
		if IsHookSatisfied(preNormal(lc), pod) {
			return &Step{To: pub.LifecycleStateNormal}
		}
	case pub.LifecycleStatePreparingUpdate, pub.LifecycleStateUpdating:
		if !upToDate {
			return nil
		}
		if !IsHookSatisfied(hook, pod) {
			return &Step{To: pub.LifecycleStateUpdated, MarkNotReady: mark}
		}
		return &Step{To: pub.LifecycleStateNormal, MarkNotReady: mark}
	case pub.LifecycleStateUpdated:
		if IsHookSatisfied(hook, pod) {
			return &Step{To: pub.LifecycleStateNormal, MarkNotReady: mark}
		}
	}
	return nil
}
