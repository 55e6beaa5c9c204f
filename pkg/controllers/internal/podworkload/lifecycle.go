package podworkload

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
)

// ApplyStep writes one lifecycle transition to a pod (one write, see
// lifecycle.Writer) and records it. It returns the pod as written, or pod itself when
// nothing was written (no step, nothing to change, or the pod is gone).
func (c *Control) ApplyStep(ctx context.Context, owner Object, pod *corev1.Pod, step *lifecycle.Step, now metav1.Time) (*corev1.Pod, error) {
	out, err := c.hooks.Write(ctx, pod, step, now)
	if apierrors.IsNotFound(err) || (err == nil && out == nil) {
		return pod, nil
	}
	if err != nil {
		return pod, err
	}
	c.Versions.Expect(out)
	c.event(owner, corev1.EventTypeNormal, ReasonLifecycleStateChanged, fmt.Sprintf("pod %s lifecycle state %s", pod.Name, step.To))
	return out, nil
}

// HasLifecycleWork reports whether a lifecycle decision may want to write to pod: a
// pod with a lifecycle state other than Normal, or Normal under a lifecycle. Pods
// without a lifecycle never need a write.
func HasLifecycleWork(lc *pub.Lifecycle, pod *corev1.Pod) bool {
	state := lifecycle.State(pod)
	return pod.DeletionTimestamp == nil && state != "" && (state != pub.LifecycleStateNormal || lc != nil)
}

// AdvanceLifecycle moves pod on from PreparingNormal, Updating or Updated once its
// hooks allow (lifecycle.DecideNormal).
func (c *Control) AdvanceLifecycle(ctx context.Context, owner Object, lc *pub.Lifecycle, revs *Revisions, pod *corev1.Pod, now metav1.Time) error {
	completed, _ := inplaceupdate.CheckCompleted(pod)
	upToDate := revs.IsUpdated(pod) && (completed || !inplaceupdate.IsInPlaceUpdating(pod))
	_, err := c.ApplyStep(ctx, owner, pod, lifecycle.DecideNormal(lc, pod, upToDate), now)
	return err
}

// AdvanceLifecycles runs AdvanceLifecycle over a workload's live pods, in parallel,
// writing only to those with lifecycle work (HasLifecycleWork): pods without a
// lifecycle cost no write. Workloads with more to decide per pod (StatefulSet takes
// back a PreparingDelete pod it wants again) call AdvanceLifecycle themselves.
func (c *Control) AdvanceLifecycles(ctx context.Context, owner Object, lc *pub.Lifecycle, revs *Revisions, pods []*corev1.Pod, now metav1.Time) error {
	var todo []*corev1.Pod
	for _, pod := range pods {
		if HasLifecycleWork(lc, pod) {
			todo = append(todo, pod)
		}
	}
	return batch.ForEach(todo, ParallelWrites, func(pod *corev1.Pod) error {
		return c.AdvanceLifecycle(ctx, owner, lc, revs, pod, now)
	})
}
