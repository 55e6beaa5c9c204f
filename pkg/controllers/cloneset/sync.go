package cloneset

import (
	"context"
	"errors"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podindex"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podorder"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/revision"
)

// syncState is what one sync knows about a CloneSet.
type syncState struct {
	cs         *apps.CloneSet
	owner      *v1beta1.CloneSet // the versioned object, for owner references and events
	pods       []*corev1.Pod     // active pods
	byName     map[string]*corev1.Pod
	updateRev  *appsv1.ControllerRevision
	currentRev string
	revisions  []*appsv1.ControllerRevision
	collisions int32
	// expectedUpdated is replicas minus partition, for status.
	expectedUpdated int32
	// requeue asks for another sync after this long (0: only on events).
	requeue time.Duration
	// specs memoises per-revision work within one sync.
	specs inplaceupdate.SpecCache
}

// sync reconciles one CloneSet; it returns when to look again if nothing else will
// trigger it (minReadySeconds running out).
func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	logger := klog.FromContext(ctx).WithValues("cloneSet", key)
	ctx = klog.NewContext(ctx, logger)
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, err
	}
	versioned, err := c.cloneSets.CloneSets(ns).Get(name)
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
	cs := &apps.CloneSet{}
	if err := c.scheme.Convert(versioned, cs, nil); err != nil {
		return 0, wrap(err, "converting %s to the hub type", key)
	}

	// Pods created or deleted but not yet seen: acting now would duplicate them.
	if !c.scaleExp.Satisfied(key) {
		logger.V(4).Info("Waiting for pod creations/deletions to reach the cache")
		return 0, nil
	}
	owned, err := podindex.PodsOwnedBy(c.podIndexer, cs.UID)
	if err != nil {
		return 0, err
	}
	st := &syncState{cs: cs, owner: versioned, byName: map[string]*corev1.Pod{}}
	for _, pod := range owned {
		if !c.podVersions.Observe(pod) {
			logger.V(4).Info("Waiting for an updated pod to reach the cache", "pod", klog.KObj(pod))
			return 0, nil
		}
		if isActive(pod) {
			st.pods = append(st.pods, pod)
			st.byName[pod.Name] = pod
		}
	}
	if err := c.syncRevisions(st, owned); err != nil {
		return 0, err
	}

	syncErr := c.reconcilePods(ctx, st)
	if err := c.syncPodsToDelete(ctx, st, owned); err != nil && syncErr == nil {
		syncErr = err
	}
	if err := c.updateStatus(ctx, st, syncErr); err != nil {
		return 0, err
	}
	return st.requeue, syncErr
}

// syncRevisions records the template as a ControllerRevision and settles the current revision.
func (c *Controller) syncRevisions(st *syncState, owned []*corev1.Pod) error {
	res, err := revision.SyncWorkload(c.history, revision.Workload{
		Owner: revision.Owner{Object: st.owner, Kind: controllerKind, Template: &st.cs.Spec.Template,
			CollisionCount: st.cs.Status.CollisionCount},
		Selector: st.cs.Spec.Selector, Pods: owned,
		CurrentRevision: st.cs.Status.CurrentRevision, RevisionHistoryLimit: st.cs.Spec.RevisionHistoryLimit,
	})
	if err != nil {
		return err
	}
	st.updateRev, st.revisions, st.collisions = res.Update, res.Revisions, res.CollisionCount
	st.currentRev = res.Current.Name
	return nil
}

func (st *syncState) revisionByName(name string) *appsv1.ControllerRevision {
	for _, r := range st.revisions {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// reconcilePods plans and carries out one round of creations, deletions and updates.
func (c *Controller) reconcilePods(ctx context.Context, st *syncState) error {
	cs := st.cs
	now := c.now()
	infos := make([]PodInfo, 0, len(st.pods))
	for _, pod := range st.pods {
		ok, wait := availableIn(pod, cs.Spec.MinReadySeconds, now)
		st.requeueAt(wait)
		infos = append(infos, PodInfo{
			Name:            pod.Name,
			Updated:         pod.Labels[pub.ControllerRevisionHashLabelKey] == st.updateRev.Name,
			Available:       ok && !c.inPlaceUpdating(pod),
			SpecifiedDelete: isSpecifiedDelete(cs, pod),
			Priority:        podorder.Priority(cs.Spec.UpdateStrategy.PriorityStrategy, pod.Labels),
			PreparingDelete: lifecycle.State(pod) == pub.LifecycleStatePreparingDelete,
			Labels:          pod.Labels,
		})
	}
	replicas := 1
	if cs.Spec.Replicas != nil {
		replicas = int(*cs.Spec.Replicas)
	}
	us := cs.Spec.UpdateStrategy
	limits, err := ResolveLimits(replicas, us.Partition, us.MaxUnavailable, us.MaxSurge, cs.Spec.ScaleStrategy.MaxUnavailable, us.Paused || us.Type == apps.OnDeleteCloneSetUpdateStrategyType)
	if err != nil {
		return wrap(err, "resolving rollout limits")
	}
	limits.Scatter = us.ScatterStrategy
	plan := Compute(infos, limits)
	st.expectedUpdated = int32(plan.ExpectedUpdated)

	if plan.ScaleUpLimited > 0 {
		c.recorder.Eventf(st.owner, corev1.EventTypeNormal, "ScaleUpLimited",
			"scaleUp is limited because of scaleStrategy.maxUnavailable, limit: %d", limits.ScaleMaxUnavailable)
	}
	var errs []error
	if err := c.deletePods(ctx, st, plan.Delete); err != nil {
		errs = append(errs, err)
	}
	if err := c.createPods(ctx, st, plan.CreateUpdated, plan.CreateCurrent); err != nil {
		errs = append(errs, err)
	}
	for _, name := range plan.Update {
		if err := c.updatePod(ctx, st, st.byName[name]); err != nil {
			errs = append(errs, err)
		}
	}
	if err := c.refreshInPlace(ctx, st); err != nil {
		errs = append(errs, err)
	}
	if err := c.advanceLifecycles(ctx, st); err != nil {
		errs = append(errs, err)
	}
	if err := c.markNewPodsReady(ctx, st); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// selectorString is status.labelSelector: the selector in string form.
func selectorString(cs *apps.CloneSet) string {
	sel, err := metav1.LabelSelectorAsSelector(cs.Spec.Selector)
	if err != nil {
		return labels.Nothing().String()
	}
	return sel.String()
}

// expect records expected pod writes before making them.
func (c *Controller) expect(st *syncState, action expectations.Action, names ...string) {
	key := st.cs.Namespace + "/" + st.cs.Name
	c.scaleExp.Expect(key, action, names...)
}

func (c *Controller) unexpect(st *syncState, action expectations.Action, name string) {
	key := st.cs.Namespace + "/" + st.cs.Name
	c.scaleExp.Observe(key, action, name)
}
