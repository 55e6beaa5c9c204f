package persistentpodstate

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/persistentpodstate"
)

// reasonGenerateFailed: the annotations ask for a PersistentPodState the server refuses
// (a malformed key), or one of that name exists that the workload does not control.
const reasonGenerateFailed = "FailedGeneratePersistentPodState"

// generate makes the workload's generated PersistentPodState what its annotations say:
// created, its spec updated, or deleted when they no longer ask for one. An object of
// the same name the workload does not control is never touched. A deleted workload's
// object goes with it (garbage collector, through the controller reference).
func (c *Controller) generate(ctx context.Context, key string) (time.Duration, error) {
	gk, ns, name, err := parseWorkloadKey(key)
	if err != nil {
		return 0, err
	}
	w, err := c.getWorkload(gk, ns, name)
	if err != nil || w == nil || w.meta.GetDeletionTimestamp() != nil {
		return 0, err
	}
	want := persistentpodstate.Generated(w.meta, w.apiVersion, gk.Kind)
	have, err := c.states.PersistentPodStates(ns).Get(name)
	if apierrors.IsNotFound(err) {
		have, err = nil, nil
	}
	if err != nil {
		return 0, err
	}
	logger := klog.FromContext(ctx).WithValues("workload", klog.KRef(ns, name), "kind", gk)
	api := c.kruise.AppsV1beta1().PersistentPodStates(ns)
	owned := have != nil && metav1.IsControlledBy(have, w.meta)
	switch {
	case want == nil && owned && have.DeletionTimestamp == nil:
		err := api.Delete(ctx, name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &have.UID}})
		if err != nil && !apierrors.IsNotFound(err) {
			return 0, fmt.Errorf("deleting the generated PersistentPodState %s/%s: %w", ns, name, err)
		}
		logger.V(2).Info("Deleted the generated PersistentPodState")
	case want == nil:
	case have == nil:
		if _, err := api.Create(ctx, want, metav1.CreateOptions{FieldManager: ControllerName}); err != nil {
			if apierrors.IsInvalid(err) {
				c.warn(w.meta, "%v", err)
				return 0, nil
			}
			if apierrors.IsAlreadyExists(err) {
				return 0, nil // the cache is behind: its event brings the key back
			}
			return 0, fmt.Errorf("creating the generated PersistentPodState %s/%s: %w", ns, name, err)
		}
		logger.V(2).Info("Generated a PersistentPodState")
	case !owned:
		c.warn(w.meta, "PersistentPodState %s exists and is not controlled by this workload", name)
	case !apiequality.Semantic.DeepEqual(have.Spec, want.Spec):
		out := have.DeepCopy()
		out.Spec = want.Spec
		if _, err := api.Update(ctx, out, metav1.UpdateOptions{FieldManager: ControllerName}); err != nil {
			if apierrors.IsInvalid(err) {
				c.warn(w.meta, "%v", err)
				return 0, nil
			}
			return 0, fmt.Errorf("updating the generated PersistentPodState %s/%s: %w", ns, name, err)
		}
		logger.V(2).Info("Updated the generated PersistentPodState")
	}
	return 0, nil
}

// warn records a warning event on the workload.
func (c *Controller) warn(obj metav1.Object, format string, args ...interface{}) {
	if ro, ok := obj.(runtime.Object); ok {
		c.recorder.Eventf(ro, corev1.EventTypeWarning, reasonGenerateFailed, format, args...)
	}
}
