package statefulset

import (
	"context"
	"errors"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
)

// deletePods deletes the planned pods: condemned ones after their claims got the
// owners the retention policy wants (so the garbage collector deletes exactly the
// claims it should), failed ones to be recreated.
func (c *Controller) deletePods(ctx context.Context, st *syncState) error {
	var errs []error
	var pods []*corev1.Pod
	for _, d := range st.plan.Delete {
		pod := st.byOrdinal[d.Ordinal]
		if d.Reason == DeleteCondemned {
			if err := c.setClaimRefs(ctx, st, pod, d.Ordinal, true); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		if d.Reason == DeleteFailed {
			c.recorder.Eventf(st.owner, corev1.EventTypeWarning, "RecreatingFailedPod",
				"StatefulSet %s/%s is recreating failed Pod %s", st.set.Namespace, st.set.Name, pod.Name)
		}
		pods = append(pods, pod)
	}
	return errors.Join(append(errs, c.deleteWithHooks(ctx, st, pods))...)
}

// deleteWithHooks deletes pods, except those a preDelete hook holds: those move to
// PreparingDelete and wait for the hook's owner.
func (c *Controller) deleteWithHooks(ctx context.Context, st *syncState, pods []*corev1.Pod) error {
	var errs []error
	var ready []*corev1.Pod
	for _, pod := range pods {
		proceed, step := lifecycle.DecideDelete(st.set.Spec.Lifecycle, pod)
		if proceed {
			ready = append(ready, pod)
			continue
		}
		if _, err := c.applyStep(ctx, st, pod, step); err != nil {
			errs = append(errs, err)
		}
	}
	if len(ready) == 0 {
		return errors.Join(errs...)
	}
	names := make([]string, len(ready))
	for i, p := range ready {
		names[i] = p.Name
	}
	c.scaleExp.Expect(st.key, expectations.Delete, names...)
	logger := klog.FromContext(ctx)
	errs = append(errs, batch.ForEach(ready, parallelWrites, func(pod *corev1.Pod) error {
		err := c.kubeClient.CoreV1().Pods(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{
			Preconditions: &metav1.Preconditions{UID: &pod.UID},
		})
		if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
			// Gone already, or a new pod took the name: nothing of ours to delete.
			c.scaleExp.Observe(st.key, expectations.Delete, pod.Name)
			return nil
		}
		if err != nil {
			c.scaleExp.Observe(st.key, expectations.Delete, pod.Name)
			c.recorder.Eventf(st.owner, corev1.EventTypeWarning, "FailedDelete",
				"delete Pod %s in StatefulSet %s failed error: %v", pod.Name, st.set.Name, err)
			return wrap(err, "deleting pod %s", pod.Name)
		}
		logger.V(2).Info("Deleted pod", "pod", klog.KObj(pod))
		c.recorder.Eventf(st.owner, corev1.EventTypeNormal, "SuccessfulDelete",
			"delete Pod %s in StatefulSet %s successful", pod.Name, st.set.Name)
		return nil
	}))
	return errors.Join(errs...)
}
