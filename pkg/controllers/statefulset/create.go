package statefulset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
)

// parallelWrites bounds concurrent pod writes in one sync; the client's QPS limit is
// what really paces them.
const parallelWrites = 16

// conflictRetry is how soon a set looks again at an ordinal taken by a pod it does
// not own (events of that pod do not reach this set).
const conflictRetry = 30 * time.Second

// createPods creates the planned pods, each after its claims, in slow-start batches
// (an OrderedReady plan holds at most one).
func (c *Controller) createPods(ctx context.Context, st *syncState) error {
	if len(st.plan.Create) == 0 {
		return nil
	}
	logger := klog.FromContext(ctx)
	updateTmpl, err := st.template(st.updateRev)
	if err != nil {
		return err
	}
	currentTmpl, err := st.template(st.currentRev)
	if err != nil {
		return err
	}
	now := metav1.NewTime(st.now)
	var pods []*corev1.Pod
	for _, cr := range st.plan.Create {
		if reason := c.claimsBlock(st, cr.Ordinal); reason != "" {
			logger.V(2).Info("Waiting before creating a pod", "ordinal", cr.Ordinal, "reason", reason)
			st.requeueAt(staleClaimRetry)
			continue
		}
		// The ordinal's name is taken by a pod this set does not own (the owner index
		// would have listed ours): adopt an orphan that matches, else report.
		if other, err := c.pods.Pods(st.set.Namespace).Get(PodName(st.set.Name, cr.Ordinal)); err == nil {
			if err := c.adopt(ctx, st, other); err != nil {
				st.createErr = errors.Join(st.createErr, err)
				st.requeueAt(conflictRetry)
			}
			continue
		}
		tmpl, rev := updateTmpl, st.updateRev.Name
		if cr.AtCurrent {
			tmpl, rev = currentTmpl, st.currentRev.Name
		}
		pods = append(pods, newPod(st.set, tmpl, rev, cr.Ordinal, now))
	}
	if len(pods) == 0 {
		return nil
	}
	names := make([]string, len(pods))
	for i, p := range pods {
		names[i] = p.Name
	}
	c.scaleExp.Expect(st.key, expectations.Create, names...)
	attempted, err := batch.SlowStart(pods, parallelWrites, func(pod *corev1.Pod) error {
		if err := c.createPod(ctx, st, pod); err != nil {
			c.scaleExp.Observe(st.key, expectations.Create, pod.Name)
			return err
		}
		return nil
	})
	// Creations never attempted will not be seen either.
	for _, pod := range pods[attempted:] {
		c.scaleExp.Observe(st.key, expectations.Create, pod.Name)
	}
	return err
}

// createPod creates one pod after its claims. A nil error with the namespace going
// away means there is nothing to do; the caller forgets the expectation on error.
func (c *Controller) createPod(ctx context.Context, st *syncState, pod *corev1.Pod) error {
	if err := c.createClaims(ctx, st, OrdinalOf(st.set.Name, pod.Name)); err != nil {
		return err
	}
	created, err := c.kubeClient.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{FieldManager: ControllerName})
	if apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause) {
		c.scaleExp.Observe(st.key, expectations.Create, pod.Name) // the set goes with the namespace
		return nil
	}
	if err != nil {
		c.recorder.Eventf(st.owner, corev1.EventTypeWarning, "FailedCreate",
			"create Pod %s in StatefulSet %s failed error: %v", pod.Name, st.set.Name, err)
		return wrap(err, "creating pod %s", pod.Name)
	}
	klog.FromContext(ctx).V(2).Info("Created pod", "pod", klog.KObj(created), "revision", created.Labels[pub.ControllerRevisionHashLabelKey])
	c.recorder.Eventf(st.owner, corev1.EventTypeNormal, "SuccessfulCreate",
		"create Pod %s in StatefulSet %s successful", created.Name, st.set.Name)
	return nil
}

// adopt takes over an orphan pod at one of the set's ordinals that matches its
// selector (a native StatefulSet deleted with --cascade=orphan before this one was
// created: migrating must not restart its pods), with one patch guarded by the pod's
// UID. Any other pod holding the name is a conflict for the user to resolve.
func (c *Controller) adopt(ctx context.Context, st *syncState, pod *corev1.Pod) error {
	selector, err := metav1.LabelSelectorAsSelector(st.set.Spec.Selector)
	if err != nil {
		return err
	}
	if ref := metav1.GetControllerOf(pod); ref != nil || pod.DeletionTimestamp != nil || !selector.Matches(labels.Set(pod.Labels)) {
		owner := "no controller"
		if ref != nil {
			owner = fmt.Sprintf("%s %s", ref.Kind, ref.Name)
		}
		c.recorder.Eventf(st.owner, corev1.EventTypeWarning, "FailedCreate",
			"create Pod %s in StatefulSet %s failed error: a pod of that name exists (%s)", pod.Name, st.set.Name, owner)
		return fmt.Errorf("pod %s exists and this set cannot adopt it (%s)", pod.Name, owner)
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"ownerReferences": []metav1.OwnerReference{*metav1.NewControllerRef(st.set, controllerKind)},
		"uid":             pod.UID,
	}})
	if err != nil {
		return err
	}
	updated, err := c.kubeClient.CoreV1().Pods(pod.Namespace).Patch(ctx, pod.Name, types.StrategicMergePatchType, patch,
		metav1.PatchOptions{FieldManager: ControllerName})
	if err != nil {
		return wrap(err, "adopting pod %s", pod.Name)
	}
	c.podVersions.Expect(updated)
	klog.FromContext(ctx).V(2).Info("Adopted orphan pod", "pod", klog.KObj(pod))
	return nil
}
