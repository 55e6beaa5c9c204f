package statefulset

import (
	"context"
	"errors"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
)

// syncState is what one sync knows about a set.
type syncState struct {
	set *v1beta1.StatefulSet
	now time.Time

	// pods are the pods the set controls, all carrying one of its ordinals
	// (terminating ones included), byOrdinal the same by ordinal.
	pods      []*corev1.Pod
	byOrdinal map[int]*corev1.Pod

	revs *podworkload.Revisions

	plan Plan
	// params are the resolved rollout parameters plan was computed with.
	params Params

	requeue podworkload.Requeue

	// claimStates are the pods whose claims are behind their templates, by ordinal
	// (volumeClaimUpdateStrategy OnPodRollingUpdate); volumeClaims is status.volumeClaims.
	claimStates  map[int]claimState
	volumeClaims []v1beta1.VolumeClaimStatus
	// claimReason and claimMessages make the FailedUpdatePVC condition; mu guards
	// them (claims are resized in parallel).
	mu            sync.Mutex
	claimReason   string
	claimMessages []string
	// newClaimCondition is the FailedUpdatePVC condition when status newly says it.
	newClaimCondition *appsv1.StatefulSetCondition
	// createErr and updateErr are reported as the FailedCreatePod and FailedUpdatePod
	// conditions.
	createErr, updateErr error
}

// sync reconciles one set; it returns when to look again if nothing else will trigger
// it (minReadySeconds or a grace period running out, a stale claim going away).
func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	logger := klog.FromContext(ctx).WithValues("statefulSet", key)
	ctx = klog.NewContext(ctx, logger)
	set, ok, err := c.Get(ctx, key)
	if !ok || err != nil {
		return 0, err
	}
	loaded, err := c.pods.Load(ctx, podworkload.Workload{
		Object: set, Selector: set.Spec.Selector, Template: &set.Spec.Template,
		CollisionCount: set.Status.CollisionCount, CurrentRevision: set.Status.CurrentRevision,
		RevisionHistoryLimit: set.Spec.RevisionHistoryLimit,
		Member:               func(pod *corev1.Pod) bool { return OrdinalOf(set.Name, pod.Name) >= 0 },
	})
	if loaded == nil || err != nil {
		return 0, err
	}
	st := &syncState{set: set, now: c.now(), pods: loaded.Pods, revs: loaded.Revisions, byOrdinal: map[int]*corev1.Pod{}}
	for _, pod := range loaded.Pods {
		st.byOrdinal[OrdinalOf(set.Name, pod.Name)] = pod
	}

	var syncErr error
	if params, err := resolveParams(set); err != nil {
		// A spec the server should have rejected: report it, retry on the next change.
		st.createErr = err
		c.recorder.Eventf(set, corev1.EventTypeWarning, "InvalidSpec", "%v", err)
	} else {
		params.PreparingUpdateAsUpdate = c.preparingUpdateAsUpdate
		st.params = params
		c.inspectClaims(st)
		st.plan = Compute(podStates(st, params), params)
		if st.plan.Waiting != "" {
			logger.V(4).Info("OrderedReady set waits", "reason", st.plan.Waiting)
		}
		if st.plan.ScaleUpLimited > 0 {
			logger.V(4).Info("Creations held back by scaleStrategy.maxUnavailable", "count", st.plan.ScaleUpLimited)
		}
		syncErr = c.reconcilePods(ctx, st)
		if err := c.syncPreDownload(ctx, st); err != nil {
			syncErr = errors.Join(syncErr, err)
		}
	}
	if err := c.updateStatus(ctx, st); err != nil {
		return 0, errors.Join(syncErr, err)
	}
	return st.requeue.Get(), syncErr
}

// reconcilePods carries out the plan, then moves every pod with work in progress on.
func (c *Controller) reconcilePods(ctx context.Context, st *syncState) error {
	var errs []error
	note := func(err error, target *error) {
		if err != nil {
			errs = append(errs, err)
			*target = errors.Join(*target, err)
		}
	}
	note(c.deletePods(ctx, st), &st.updateErr)
	note(c.createPods(ctx, st), &st.createErr)
	note(c.updatePods(ctx, st), &st.updateErr)
	note(c.pods.RefreshInPlace(ctx, st.pods, &st.requeue), &st.updateErr)
	note(c.advanceLifecycles(ctx, st), &st.updateErr)
	note(c.pods.InitializePods(ctx, st.pods, metav1.NewTime(st.now)), &st.updateErr)
	note(c.syncClaims(ctx, st), &st.createErr)
	return errors.Join(errs...)
}

// retention returns the set's claim retention policy, Retain for anything unset.
func retention(set *v1beta1.StatefulSet) (whenDeleted, whenScaled v1beta1.PersistentVolumeClaimRetentionPolicyType) {
	whenDeleted, whenScaled = v1beta1.RetainPersistentVolumeClaimRetentionPolicyType, v1beta1.RetainPersistentVolumeClaimRetentionPolicyType
	if p := set.Spec.PersistentVolumeClaimRetentionPolicy; p != nil {
		if p.WhenDeleted != "" {
			whenDeleted = p.WhenDeleted
		}
		if p.WhenScaled != "" {
			whenScaled = p.WhenScaled
		}
	}
	return whenDeleted, whenScaled
}

// selectorString is status.labelSelector: the selector in string form.
func selectorString(set *v1beta1.StatefulSet) string {
	sel, err := metav1.LabelSelectorAsSelector(set.Spec.Selector)
	if err != nil {
		return ""
	}
	return sel.String()
}
