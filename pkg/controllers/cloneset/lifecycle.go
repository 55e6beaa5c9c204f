package cloneset

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
)

// applyStep writes one lifecycle transition to a pod (one write, see
// lifecycle.Writer). It returns the pod as written, or pod itself when nothing changed.
func (c *Controller) applyStep(ctx context.Context, st *syncState, pod *corev1.Pod, step *lifecycle.Step) (*corev1.Pod, error) {
	out, err := c.hooks.Write(ctx, pod, step, metav1.NewTime(c.now()))
	if apierrors.IsNotFound(err) || (err == nil && out == nil) {
		return pod, nil
	}
	if err != nil {
		return pod, err
	}
	c.podVersions.Expect(out)
	c.recorder.Eventf(st.owner, corev1.EventTypeNormal, "LifecycleStateChanged", "pod %s lifecycle state %s", pod.Name, step.To)
	return out, nil
}

// advanceLifecycles moves pods on from PreparingNormal, Updating and Updated once
// their hooks allow; pods without a lifecycle never need a write here.
func (c *Controller) advanceLifecycles(ctx context.Context, st *syncState) error {
	lc := st.cs.Spec.Lifecycle
	var todo []*corev1.Pod
	for _, pod := range st.pods {
		if lifecycle.State(pod) == "" || lifecycle.State(pod) == pub.LifecycleStateNormal && lc == nil {
			continue
		}
		todo = append(todo, pod)
	}
	return forEach(todo, func(pod *corev1.Pod) error {
		completed, _ := inplaceupdate.CheckCompleted(pod)
		upToDate := pod.Labels[pub.ControllerRevisionHashLabelKey] == st.updateRev.Name &&
			(completed || !inplaceupdate.IsInPlaceUpdating(pod))
		_, err := c.applyStep(ctx, st, pod, lifecycle.DecideNormal(lc, pod, upToDate))
		return err
	})
}
