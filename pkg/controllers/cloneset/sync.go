package cloneset

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/claimtemplate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podorder"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
)

// syncState is what one sync knows about a CloneSet.
type syncState struct {
	cs      *v1beta1.CloneSet
	now     time.Time
	claimed []*corev1.Pod // every pod the CloneSet controls, finished ones included
	pods    []*corev1.Pod // active pods
	byName  map[string]*corev1.Pod
	revs    *podworkload.Revisions
	// expectedUpdated is replicas minus partition, for status.
	expectedUpdated int32
	// partition and maxUnavailable are the resolved rollout limits.
	partition, maxUnavailable int
	// claims is what PVC reuse (or its absence) asks of this sync.
	claims  claimPlan
	requeue podworkload.Requeue
}

// sync reconciles one CloneSet; it returns when to look again if nothing else will
// trigger it (minReadySeconds or a grace period running out).
func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	ctx = klog.NewContext(ctx, klog.FromContext(ctx).WithValues("cloneSet", key))
	cs, ok, err := c.Get(ctx, key)
	if !ok || err != nil {
		return 0, err
	}
	w := podworkload.Workload{
		Object: cs, Selector: cs.Spec.Selector, Template: &cs.Spec.Template,
		CollisionCount: cs.Status.CollisionCount, CurrentRevision: cs.Status.CurrentRevision,
		RevisionHistoryLimit: cs.Spec.RevisionHistoryLimit,
		// Every revision records its claim templates, whatever the gate, so that
		// turning it on finds them (as OpenKruise writes them).
		RevisionAnnotations: func() map[string]string { return claimtemplate.Annotations(cs.Spec.VolumeClaimTemplates) },
	}
	if c.recreateOnClaimChange {
		w.InPlaceAllowed = claimtemplate.InPlaceAllowed
	}
	loaded, err := c.pods.Load(ctx, w)
	if loaded == nil || err != nil {
		return 0, err
	}
	st := &syncState{cs: cs, now: c.now(), claimed: loaded.Pods, revs: loaded.Revisions, byName: map[string]*corev1.Pod{}}
	for _, pod := range loaded.Pods {
		if isActive(pod) {
			st.pods = append(st.pods, pod)
			st.byName[pod.Name] = pod
		}
	}
	var claims []*corev1.PersistentVolumeClaim
	if len(cs.Spec.VolumeClaimTemplates) > 0 {
		if claims, err = c.ownedClaims(cs); err != nil {
			return 0, err
		}
	}
	st.claims = planClaims(pvcReuse(cs), st.claimed, claims)
	syncErr := c.reconcilePods(ctx, st)
	if err := c.syncPreDownload(ctx, st); err != nil && syncErr == nil {
		syncErr = err
	}
	if err := c.syncPodsToDelete(ctx, st); err != nil && syncErr == nil {
		syncErr = err
	}
	if err := c.updateStatus(ctx, st, syncErr); err != nil {
		return 0, err
	}
	return st.requeue.Get(), syncErr
}

// reconcilePods plans and carries out one round of creations, deletions and updates.
func (c *Controller) reconcilePods(ctx context.Context, st *syncState) error {
	cs := st.cs
	infos := make([]PodInfo, 0, len(st.pods))
	priority := podorder.PriorityFor(rollingUpdate(cs).PriorityStrategy)
	for _, pod := range st.pods {
		ok, wait := podcondition.AvailableIn(pod, cs.Spec.MinReadySeconds, st.now)
		st.requeue.After(wait)
		updated := st.revs.IsUpdated(pod)
		cand := podorder.CandidateFromPod(pod, ok && !inplaceupdate.IsInPlaceUpdating(pod), priority)
		cand.PreparingUpdate = cand.PreparingUpdate && !updated
		infos = append(infos, PodInfo{
			Candidate:       cand,
			Updated:         updated,
			SpecifiedDelete: isSpecifiedDelete(cs, pod),
			HeldOnDelete:    lifecycle.HookHolds(preDeleteHook(cs), pod),
		})
	}
	replicas := 1
	if cs.Spec.Replicas != nil {
		replicas = int(*cs.Spec.Replicas)
	}
	ru := rollingUpdate(cs)
	limits, err := ResolveLimits(replicas, ru.Partition, ru.MaxUnavailable, ru.MaxSurge, cs.Spec.ScaleStrategy.MaxUnavailable, holdsUpdates(cs))
	if err != nil {
		return fmt.Errorf("resolving rollout limits: %w", err)
	}
	limits.Scatter = ru.ScatterStrategy
	limits.ExcludePreparingDelete = excludePreparingDelete(cs)
	limits.PartitionRollback = c.partitionRollback
	limits.PreparingUpdateAsUpdate = c.preparingUpdateAsUpdate
	st.partition, st.maxUnavailable = limits.Partition, limits.MaxUnavailable
	plan := Compute(infos, limits)
	st.expectedUpdated = int32(plan.ExpectedUpdated)

	if plan.ScaleUpLimited > 0 {
		c.recorder.Eventf(cs, corev1.EventTypeNormal, "ScaleUpLimited",
			"scaleUp is limited because of scaleStrategy.maxUnavailable, limit: %d", limits.ScaleMaxUnavailable)
	}
	var errs []error
	note := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	now := metav1.NewTime(st.now)
	note(c.syncClaims(ctx, st))
	note(c.deletePods(ctx, st, append(plan.Delete, plan.Held...)))
	note(c.createPods(ctx, st, plan.CreateUpdated, plan.CreateCurrent))
	for _, name := range plan.Update {
		note(c.updatePod(ctx, st, st.byName[name]))
	}
	for _, name := range plan.Rollback {
		note(c.rollbackPod(ctx, st, st.byName[name]))
	}
	note(c.pods.RefreshInPlace(ctx, st.pods, &st.requeue))
	note(c.pods.AdvanceLifecycles(ctx, st.cs, st.cs.Spec.Lifecycle, st.revs, st.pods, now))
	note(c.pods.InitializePods(ctx, st.pods, now))
	return errors.Join(errs...)
}

// selectorString is status.labelSelector: the selector in string form.
func selectorString(cs *v1beta1.CloneSet) string {
	sel, err := metav1.LabelSelectorAsSelector(cs.Spec.Selector)
	if err != nil {
		return labels.Nothing().String()
	}
	return sel.String()
}
