package uniteddeployment

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/revision"
)

func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, nil
	}
	ud, err := c.uds.UnitedDeployments(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil // the garbage collector removes its workloads
	}
	if err != nil {
		return 0, err
	}
	if ud.DeletionTimestamp != nil {
		return 0, nil
	}
	logger := klog.FromContext(ctx).WithValues("unitedDeployment", klog.KObj(ud))
	ctx = klog.NewContext(ctx, logger)
	if !c.status.Current(ctx, ud) {
		return 0, nil
	}

	kind := c.kinds.For(ud)
	if kind == nil {
		return 0, nil // validation requires a template: nothing to run
	}
	selector, err := metav1.LabelSelectorAsSelector(ud.Spec.Selector)
	if err != nil {
		return 0, nil // validation refuses it
	}
	all, err := kind.list(ud.Namespace, selector)
	if err != nil {
		return 0, fmt.Errorf("listing subset workloads: %w", err)
	}
	var owned []workload
	for _, w := range all {
		if ref := metav1.GetControllerOfNoCopy(w.obj); ref != nil && ref.UID == ud.UID {
			owned = append(owned, w)
			// A creation's event can come before its expectation was recorded.
			c.expect.Observe(key, expectations.Create, w.obj.GetName())
		}
	}

	rev, err := revision.SyncWorkload(c.history, revision.Workload{
		Owner: revision.Owner{Object: ud, Kind: controllerKind, Template: podTemplateOf(ud),
			CollisionCount: ud.Status.CollisionCount},
		Selector:             ud.Spec.Selector,
		CurrentRevision:      ud.Status.CurrentRevision,
		RevisionHistoryLimit: ud.Spec.RevisionHistoryLimit,
	})
	if err != nil {
		return 0, err
	}

	adaptive, recheck := c.decideAdaptive(ud)
	full := map[string]int32{}
	for name, d := range adaptive {
		if d.Full {
			full[name] = d.Room
		}
	}
	plan, err := Compute(ud, owned, full)
	if err != nil {
		return 0, err
	}
	if reserving(&ud.Spec.Topology.ScheduleStrategy) && len(full) > 0 {
		base, err := Compute(ud, owned, nil)
		if err != nil {
			return 0, err
		}
		keepReserved(&plan, base.Replicas, adaptive)
	}
	// Created or deleted workloads not seen yet: the cache is stale, so only what
	// exists is updated; the informer's event queues the next sync.
	settled := c.expect.Satisfied(key)
	writeErr := c.apply(ctx, key, ud, kind, plan, rev.Update.Name, settled)

	status := computeStatus(ud, plan, adaptive, rev.Update.Name, rev.CollisionCount, writeErr, c.now())
	if err := c.updateStatus(ctx, ud, status); err != nil {
		return 0, err
	}
	return recheck, writeErr
}

// podTemplateOf is the pod template of the workload template: its revisions are the
// UnitedDeployment's revisions.
func podTemplateOf(ud *v1beta1.UnitedDeployment) *corev1.PodTemplateSpec {
	t := &ud.Spec.Template
	switch {
	case t.CloneSetTemplate != nil:
		return &t.CloneSetTemplate.Spec.Template
	case t.AdvancedStatefulSetTemplate != nil:
		return &t.AdvancedStatefulSetTemplate.Spec.Template
	case t.StatefulSetTemplate != nil:
		return &t.StatefulSetTemplate.Spec.Template
	case t.DeploymentTemplate != nil:
		return &t.DeploymentTemplate.Spec.Template
	}
	return &corev1.PodTemplateSpec{}
}

// apply creates, updates and deletes subset workloads as the plan says; a workload is
// written only when what the controller wants of it changed (its hash annotation).
// Unless settled (earlier creations and deletions seen), it only updates.
func (c *Controller) apply(ctx context.Context, key string, ud *v1beta1.UnitedDeployment, kind kindAdapter, plan Plan,
	updateRevision string, settled bool) error {
	var errs []error
	for i := range ud.Spec.Topology.Subsets {
		s := &ud.Spec.Topology.Subsets[i]
		obj, err := kind.build(ud, desired{subset: s, revision: updateRevision, replicas: plan.Replicas[s.Name], partition: partitionOf(ud, s.Name)})
		if err != nil {
			errs = append(errs, fmt.Errorf("subset %s: %w", s.Name, err))
			continue
		}
		w, ok := plan.Keep[s.Name]
		switch {
		case !ok && !settled:
			// waiting for the cache to show what was created or deleted earlier
		case !ok:
			var created string
			if created, err = kind.create(ctx, obj); err == nil {
				c.expect.Expect(key, expectations.Create, created)
				c.recorder.Eventf(ud, corev1.EventTypeNormal, "SuccessfulCreate", "Created %s of subset %s", created, s.Name)
			}
		case w.specHash != obj.GetAnnotations()[specHashAnnotation]:
			err = kind.update(ctx, w, obj)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("subset %s: %w", s.Name, err))
		}
	}
	for _, w := range plan.Delete {
		if !settled {
			break
		}
		c.expect.Expect(key, expectations.Delete, w.obj.GetName())
		if err := kind.delete(ctx, w); err != nil {
			c.expect.Observe(key, expectations.Delete, w.obj.GetName()) // no event will come
			if !apierrors.IsNotFound(err) {
				errs = append(errs, fmt.Errorf("deleting %s: %w", w.obj.GetName(), err))
			}
			continue
		}
		c.recorder.Eventf(ud, corev1.EventTypeNormal, "SuccessfulDelete", "Deleted workload %s of subset %q", w.obj.GetName(), w.subset)
	}
	if err := errors.Join(errs...); err != nil {
		c.recorder.Eventf(ud, corev1.EventTypeWarning, "SubsetFailure", "%v", err)
		return err
	}
	return nil
}

// decideAdaptive decides, under Adaptive scheduling, which subsets are full, and when
// to look again.
func (c *Controller) decideAdaptive(ud *v1beta1.UnitedDeployment) (map[string]AdaptiveDecision, time.Duration) {
	s := &ud.Spec.Topology.ScheduleStrategy
	if s.Type != v1beta1.AdaptiveUnitedDeploymentScheduleStrategyType {
		return nil, 0
	}
	critical, last := adaptiveDurations(s)
	out := map[string]AdaptiveDecision{}
	var recheck time.Duration
	for _, subset := range ud.Spec.Topology.Subsets {
		sel, err := metav1.LabelSelectorAsSelector(subsetSelector(ud, subset.Name))
		if err != nil {
			continue
		}
		pods, err := c.pods.Pods(ud.Namespace).List(sel)
		if err != nil {
			continue
		}
		decide := DecideAdaptive
		if reserving(s) {
			decide = DecideReserving
		}
		d := decide(c.now(), schedulableCondition(ud, subset.Name), pods, critical, last)
		out[subset.Name] = d
		if d.Recheck > 0 && (recheck == 0 || d.Recheck < recheck) {
			recheck = d.Recheck
		}
	}
	return out, recheck
}

// schedulableCondition is a subset's last reported Schedulable condition.
func schedulableCondition(ud *v1beta1.UnitedDeployment, subset string) *v1beta1.UnitedDeploymentSubsetCondition {
	for i := range ud.Status.SubsetStatuses {
		st := &ud.Status.SubsetStatuses[i]
		if st.Name != subset {
			continue
		}
		for j := range st.Conditions {
			if st.Conditions[j].Type == v1beta1.UnitedDeploymentSubsetSchedulable {
				return &st.Conditions[j]
			}
		}
	}
	return nil
}
