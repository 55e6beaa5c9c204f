package podworkload

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
)

// DeletePods deletes pods of owner, except those a preDelete hook of lc holds: those
// move to PreparingDelete (one write) and wait for the hook's owner. Each deletion is
// expected before it is sent and guarded by the pod's UID (a pod recreated under the
// name is not ours to delete); claimsOf names the claims to delete with a pod (nil:
// none, the garbage collector or the workload's retention policy sees to them). The
// pods exist already, so the list is as long as the cache; plans that delete in
// proportion to a number cap their deletions at batch.Burst.
func (c *Control) DeletePods(ctx context.Context, owner Object, lc *pub.Lifecycle, pods []*corev1.Pod, claimsOf func(*corev1.Pod) []string, now metav1.Time) error {
	var errs []error
	var ready []*corev1.Pod
	for _, pod := range pods {
		proceed, step := lifecycle.DecideDelete(lc, pod)
		if proceed {
			ready = append(ready, pod)
			continue
		}
		if _, err := c.ApplyStep(ctx, owner, pod, step, now); err != nil {
			errs = append(errs, err)
		}
	}
	if len(ready) == 0 {
		return errors.Join(errs...)
	}
	k := key(owner)
	names := make([]string, len(ready))
	for i, p := range ready {
		names[i] = p.Name
	}
	c.Scale.Expect(k, expectations.Delete, names...)
	errs = append(errs, batch.ForEach(ready, ParallelWrites, func(pod *corev1.Pod) error {
		err := c.client.CoreV1().Pods(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{
			Preconditions: &metav1.Preconditions{UID: &pod.UID},
		})
		switch {
		case apierrors.IsConflict(err):
			// A new pod took the name: nothing of ours to delete.
			c.Scale.Observe(k, expectations.Delete, pod.Name)
			return nil
		case apierrors.IsNotFound(err):
			c.Scale.Observe(k, expectations.Delete, pod.Name) // gone already; its claims still go
		case err != nil:
			c.Scale.Observe(k, expectations.Delete, pod.Name)
			c.event(owner, corev1.EventTypeWarning, ReasonFailedDelete, c.Text.PodDeleteFailed(owner.GetName(), pod.Name, err))
			return fmt.Errorf("deleting pod %s: %w", pod.Name, err)
		default:
			klog.FromContext(ctx).V(2).Info("Deleted pod", "pod", klog.KObj(pod))
			c.event(owner, corev1.EventTypeNormal, ReasonSuccessfulDelete, c.Text.PodDeleted(owner.GetName(), pod.Name))
		}
		return c.deleteClaims(ctx, pod, claimsOf)
	}))
	return errors.Join(errs...)
}

func (c *Control) deleteClaims(ctx context.Context, pod *corev1.Pod, claimsOf func(*corev1.Pod) []string) error {
	if claimsOf == nil {
		return nil
	}
	for _, name := range claimsOf(pod) {
		err := c.client.CoreV1().PersistentVolumeClaims(pod.Namespace).Delete(ctx, name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("deleting claim %s of pod %s: %w", name, pod.Name, err)
		}
	}
	return nil
}
