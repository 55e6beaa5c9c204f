package cloneset

import (
	"context"
	"errors"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
)

// parallelWrites bounds concurrent pod writes in one sync; the client's QPS limit is
// what really paces them.
const parallelWrites = 16

// forEach runs fn on every item, parallelWrites at a time, joining the errors.
func forEach[T any](items []T, fn func(T) error) error {
	return batch.ForEach(items, parallelWrites, fn)
}

// createPods creates pods at the update and the current revision, with their PVCs.
func (c *Controller) createPods(ctx context.Context, st *syncState, atUpdate, atCurrent int) error {
	if atUpdate+atCurrent == 0 {
		return nil
	}
	updateTmpl, err := st.template(st.updateRev)
	if err != nil {
		return err
	}
	currentTmpl := updateTmpl
	currentName := st.updateRev.Name
	if atCurrent > 0 {
		if rev := st.revisionByName(st.currentRev); rev != nil {
			if currentTmpl, err = st.template(rev); err != nil {
				return err
			}
			currentName = rev.Name
		}
	}
	ids := sets.New[string]()
	for _, p := range st.pods {
		ids.Insert(p.Labels[pub.CloneSetInstanceIDKey])
	}
	var pods []*corev1.Pod
	for i := range atUpdate + atCurrent {
		tmpl, rev := updateTmpl, st.updateRev.Name
		if i >= atUpdate {
			tmpl, rev = currentTmpl, currentName
		}
		pods = append(pods, newPod(st.cs, tmpl, rev, newInstanceID(ids)))
	}
	names := make([]string, len(pods))
	for i, p := range pods {
		names[i] = p.Name
	}
	c.expect(st, expectations.Create, names...)
	logger := klog.FromContext(ctx)
	attempted, err := slowStart(pods, func(pod *corev1.Pod) error {
		for _, tmpl := range st.cs.Spec.VolumeClaimTemplates {
			claim := newClaim(st.cs, tmpl, pod.Name, pod.Labels[pub.CloneSetInstanceIDKey])
			if _, err := c.kubeClient.CoreV1().PersistentVolumeClaims(pod.Namespace).Create(ctx, claim, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
				c.unexpect(st, expectations.Create, pod.Name)
				c.recorder.Eventf(st.owner, corev1.EventTypeWarning, "FailedCreate", "failed to create pvc: %v", err)
				return wrap(err, "creating claim for pod")
			}
		}
		created, err := c.kubeClient.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{FieldManager: ControllerName})
		if apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause) {
			// The namespace, and the CloneSet with it, is going away: nothing to retry.
			c.unexpect(st, expectations.Create, pod.Name)
			return nil
		}
		if err != nil {
			c.unexpect(st, expectations.Create, pod.Name)
			c.recorder.Eventf(st.owner, corev1.EventTypeWarning, "FailedCreate", "failed to create pod: %v", err)
			return wrap(err, "creating pod")
		}
		logger.V(2).Info("Created pod", "pod", klog.KObj(created), "revision", created.Labels[pub.ControllerRevisionHashLabelKey])
		c.recorder.Eventf(st.owner, corev1.EventTypeNormal, "SuccessfulCreate", "succeed to create pod %s", created.Name)
		return nil
	})
	// Creations never attempted will not be seen either.
	for _, pod := range pods[attempted:] {
		c.unexpect(st, expectations.Create, pod.Name)
	}
	return err
}

// slowStart creates in batches of 1, 2, 4, ... and stops after a failing batch, as
// kube's ReplicaSet controller does (see batch.SlowStart).
func slowStart[T any](items []T, fn func(T) error) (int, error) {
	return batch.SlowStart(items, parallelWrites, fn)
}

// deletePods deletes pods (and the PVCs made for them).
func (c *Controller) deletePods(ctx context.Context, st *syncState, names []string) error {
	if len(names) == 0 {
		return nil
	}
	// A preDelete hook holds the pod in PreparingDelete until its owner lets go.
	var ready []string
	var holdErrs []error
	for _, name := range names {
		proceed, step := lifecycle.DecideDelete(st.cs.Spec.Lifecycle, st.byName[name])
		if proceed {
			ready = append(ready, name)
			continue
		}
		if _, err := c.applyStep(ctx, st, st.byName[name], step); err != nil {
			holdErrs = append(holdErrs, err)
		}
	}
	names = ready
	if len(names) == 0 {
		return errors.Join(holdErrs...)
	}
	c.expect(st, expectations.Delete, names...)
	logger := klog.FromContext(ctx)
	return errors.Join(append(holdErrs, forEach(names, func(name string) error {
		pod := st.byName[name]
		err := c.kubeClient.CoreV1().Pods(st.cs.Namespace).Delete(ctx, name, metav1.DeleteOptions{
			Preconditions: &metav1.Preconditions{UID: &pod.UID},
		})
		if err != nil && !apierrors.IsNotFound(err) {
			c.unexpect(st, expectations.Delete, name)
			c.recorder.Eventf(st.owner, corev1.EventTypeWarning, "FailedDelete", "failed to delete pod %s: %v", name, err)
			return wrap(err, "deleting pod %s", name)
		}
		if apierrors.IsNotFound(err) {
			c.unexpect(st, expectations.Delete, name)
		}
		for _, tmpl := range st.cs.Spec.VolumeClaimTemplates {
			claim := claimName(tmpl.Name, name)
			if err := c.kubeClient.CoreV1().PersistentVolumeClaims(st.cs.Namespace).Delete(ctx, claim, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				return wrap(err, "deleting claim %s", claim)
			}
		}
		logger.V(2).Info("Deleted pod", "pod", klog.KRef(st.cs.Namespace, name))
		c.recorder.Eventf(st.owner, corev1.EventTypeNormal, "SuccessfulDelete", "succeed to delete pod %s", name)
		return nil
	}))...)
}
