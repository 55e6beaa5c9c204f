package statefulset

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
)

// conflictRetry is how soon a set looks again at an ordinal taken by a pod it does
// not own (events of that pod do not reach this set).
const conflictRetry = 30 * time.Second

// createPods creates the planned pods, each after its missing claims, in slow-start
// batches (an OrderedReady plan holds at most one).
func (c *Controller) createPods(ctx context.Context, st *syncState) error {
	if len(st.plan.Create) == 0 {
		return nil
	}
	logger := klog.FromContext(ctx)
	updateTmpl, err := st.revs.Template(st.revs.Update)
	if err != nil {
		return err
	}
	currentTmpl, err := st.revs.Template(st.revs.Current)
	if err != nil {
		return err
	}
	now := metav1.NewTime(st.now)
	var pods []*corev1.Pod
	for _, cr := range st.plan.Create {
		if reason := c.claimsBlock(st, cr.Ordinal); reason != "" {
			logger.V(2).Info("Waiting before creating a pod", "ordinal", cr.Ordinal, "reason", reason)
			st.requeue.After(staleClaimRetry)
			continue
		}
		// The ordinal's name is taken by a pod this set does not control and could not
		// adopt (the claim at the start of the sync adopts matching orphans).
		if other, err := c.podLister.Pods(st.set.Namespace).Get(PodName(st.set.Name, cr.Ordinal)); err == nil {
			st.createErr = errors.Join(st.createErr, c.nameTaken(st, other))
			st.requeue.After(conflictRetry)
			continue
		}
		tmpl, rev := updateTmpl, st.revs.Update.Name
		if cr.AtCurrent {
			tmpl, rev = currentTmpl, st.revs.Current.Name
		}
		pod := newPod(st.set, tmpl, rev, cr.Ordinal, now)
		if c.readinessGate {
			lifecycle.InjectReadinessGate(pod, st.set.Spec.Lifecycle)
		}
		pods = append(pods, pod)
	}
	return c.pods.CreatePods(ctx, st.set, pods, func(pod *corev1.Pod) []*corev1.PersistentVolumeClaim {
		return c.missingClaims(st, OrdinalOf(st.set.Name, pod.Name))
	})
}

// nameTaken reports a pod of another owner (or an orphan the set cannot adopt) that
// holds one of the set's names: a conflict for the user to resolve, never replaced.
func (c *Controller) nameTaken(st *syncState, pod *corev1.Pod) error {
	owner := "no controller"
	if ref := metav1.GetControllerOf(pod); ref != nil {
		owner = fmt.Sprintf("%s %s", ref.Kind, ref.Name)
	}
	c.recorder.Eventf(st.set, corev1.EventTypeWarning, "FailedCreate",
		"create Pod %s in StatefulSet %s failed error: a pod of that name exists (%s)", pod.Name, st.set.Name, owner)
	return fmt.Errorf("pod %s exists and this set cannot adopt it (%s)", pod.Name, owner)
}
