package statefulset

import (
	"context"
	"errors"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podindex"
)

// syncState is what one sync knows about a set.
type syncState struct {
	key   string
	set   *apps.StatefulSet
	owner *v1beta1.StatefulSet // the versioned object, for owner references and events
	now   time.Time

	// pods are the owned pods whose names carry an ordinal of the set (terminating
	// ones included), byOrdinal the same by ordinal.
	pods      []*corev1.Pod
	byOrdinal map[int]*corev1.Pod

	updateRev, currentRev *appsv1.ControllerRevision
	revisions             []*appsv1.ControllerRevision
	collisions            int32

	plan Plan
	// desired are the ordinals the set runs (plan.Desired as a set).
	desired map[int]bool

	// requeue asks for another sync after this long (0: only on events).
	requeue time.Duration
	// createErr and updateErr are reported as the FailedCreatePod and FailedUpdatePod
	// conditions.
	createErr, updateErr error

	// specs memoises per-revision work within one sync.
	specs inplaceupdate.SpecCache
}

// sync reconciles one set; it returns when to look again if nothing else will trigger
// it (minReadySeconds or a grace period running out, a stale claim going away).
func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	logger := klog.FromContext(ctx).WithValues("statefulSet", key)
	ctx = klog.NewContext(ctx, logger)
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, err
	}
	versioned, err := c.sets.StatefulSets(ns).Get(name)
	if isNotFound(err) {
		c.scaleExp.Forget(key)
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if versioned.DeletionTimestamp != nil {
		return 0, nil // the garbage collector deletes the pods
	}
	if !c.setVersions.Observe(versioned) {
		logger.V(4).Info("Waiting for the last status write to reach the cache")
		return 0, nil
	}
	set := &apps.StatefulSet{}
	if err := c.scheme.Convert(versioned, set, nil); err != nil {
		return 0, wrap(err, "converting %s to the hub type", key)
	}

	// Pods created or deleted but not seen yet: planning now could act twice.
	if !c.scaleExp.Satisfied(key) {
		logger.V(4).Info("Waiting for pod creations/deletions to reach the cache")
		return 0, nil
	}
	owned, err := podindex.PodsOwnedBy(c.podIndexer, set.UID)
	if err != nil {
		return 0, err
	}
	st := &syncState{key: key, set: set, owner: versioned, now: c.now(), byOrdinal: map[int]*corev1.Pod{}}
	for _, pod := range owned {
		if !c.podVersions.Observe(pod) {
			logger.V(4).Info("Waiting for an updated pod to reach the cache", "pod", klog.KObj(pod))
			return 0, nil
		}
		if ord := OrdinalOf(set.Name, pod.Name); ord >= 0 {
			st.pods = append(st.pods, pod)
			st.byOrdinal[ord] = pod
		}
	}
	if err := c.syncRevisions(st, owned); err != nil {
		return 0, err
	}

	var syncErr error
	if params, err := resolveParams(set); err != nil {
		// A spec the server should have rejected: report it, retry on the next change.
		st.createErr = err
		c.recorder.Eventf(st.owner, corev1.EventTypeWarning, "InvalidSpec", "%v", err)
	} else {
		st.plan = Compute(podStates(st, params), params)
		st.desired = make(map[int]bool, len(st.plan.Desired))
		for _, o := range st.plan.Desired {
			st.desired[o] = true
		}
		if st.plan.Waiting != "" {
			logger.V(4).Info("OrderedReady set waits", "reason", st.plan.Waiting)
		}
		if st.plan.ScaleUpLimited > 0 {
			logger.V(4).Info("Creations held back by scaleStrategy.maxUnavailable", "count", st.plan.ScaleUpLimited)
		}
		syncErr = c.reconcilePods(ctx, st)
	}
	if err := c.updateStatus(ctx, st); err != nil {
		return 0, errors.Join(syncErr, err)
	}
	return st.requeue, syncErr
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
	note(c.refreshInPlace(ctx, st), &st.updateErr)
	note(c.advanceLifecycles(ctx, st), &st.updateErr)
	note(c.markNewPodsReady(ctx, st), &st.updateErr)
	note(c.syncClaims(ctx, st), &st.createErr)
	return errors.Join(errs...)
}

// requeueAt asks for another sync after d (the shortest request wins).
func (st *syncState) requeueAt(d time.Duration) {
	if d > 0 && (st.requeue == 0 || d < st.requeue) {
		st.requeue = d
	}
}

// retention returns the set's claim retention policy, Retain for anything unset.
func retention(set *apps.StatefulSet) (whenDeleted, whenScaled apps.PersistentVolumeClaimRetentionPolicyType) {
	whenDeleted, whenScaled = apps.RetainPersistentVolumeClaimRetentionPolicyType, apps.RetainPersistentVolumeClaimRetentionPolicyType
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
func selectorString(set *apps.StatefulSet) string {
	sel, err := metav1.LabelSelectorAsSelector(set.Spec.Selector)
	if err != nil {
		return ""
	}
	return sel.String()
}
