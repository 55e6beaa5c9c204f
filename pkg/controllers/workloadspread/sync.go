package workloadspread

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/klog/v2"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podorder"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/workloadtarget"
	"github.com/kruise-native/kruise-native/pkg/workloadspread"
)

// Event reasons.
const (
	reasonTargetNotFound = "TargetNotFound"
	reasonInvalidSpread  = "InvalidSpread"
	reasonRescheduled    = "RescheduledPod"
)

func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, err
	}
	ws, err := c.spreads.WorkloadSpreads(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if ws.DeletionTimestamp != nil || ws.Spec.TargetReference == nil {
		return 0, nil
	}
	logger := klog.FromContext(ctx).WithValues("workloadspread", klog.KObj(ws))
	ref := ws.Spec.TargetReference
	t, err := c.targets.Get(ctx, ns, ref.APIVersion, ref.Kind, ref.Name)
	var pods []*corev1.Pod
	switch {
	case apierrors.IsNotFound(err):
		// Counted as a target without pods: the status is ready for the first pods of
		// a workload applied together with its spread.
		c.recorder.Eventf(ws, corev1.EventTypeWarning, reasonTargetNotFound, "%s %s not found", ref.Kind, ref.Name)
		t = &workloadtarget.Target{}
	case err != nil:
		return 0, fmt.Errorf("reading the target of WorkloadSpread %s: %w", key, err)
	default:
		if pods, err = c.podsOf(ws, t.Selector, t.UID, t.OwnsPodsDirectly); err != nil {
			return 0, err
		}
	}
	replicas, err := filteredReplicas(ws, t)
	if err != nil {
		c.recorder.Eventf(ws, corev1.EventTypeWarning, reasonInvalidSpread, "Cannot count the target's replicas: %v", err)
		return 0, nil
	}
	now := c.now()
	views := make([]workloadspread.Pod, len(pods))
	for i, p := range pods {
		views[i] = c.view(ws, p)
	}
	res, err := workloadspread.Compute(ws, replicas, views, now)
	if err == nil {
		// Deployment and ReplicaSet targets: each pod version's subsets as well, which
		// the webhook places that version's new pods by.
		var requeue time.Duration
		res.Status.VersionedSubsetStatuses, requeue, err = workloadspread.ComputeVersions(ws, replicas, views, now)
		if requeue > 0 && (res.RequeueAfter == 0 || requeue < res.RequeueAfter) {
			res.RequeueAfter = requeue
		}
	}
	if err != nil {
		c.recorder.Eventf(ws, corev1.EventTypeWarning, reasonInvalidSpread, "Cannot count the subsets: %v", err)
		return 0, nil
	}
	// Costs before status: a scale-down that follows must already find its order. At
	// most batch.Burst patches a sync: each patched pod's event brings the spread back
	// for the rest.
	patched := 0
	for _, p := range pods {
		if cost, ok := res.Costs[p.Name]; ok && patched < batch.Burst {
			patched++
			if err := c.setDeletionCost(ctx, p, cost); err != nil {
				return 0, err
			}
		}
	}
	// Pods made before the spread, counted in the subset their node matches, are marked
	// with it and given its patch's labels and annotations (OpenKruise does; its
	// annotation opts out of the patch), within the same burst.
	for i, p := range pods {
		if _, placed := workloadspread.PlacementOf(p); placed || views[i].Subset == "" || views[i].Terminating || patched >= batch.Burst {
			continue
		}
		patched++
		if err := c.markExisting(ctx, ws, p, views[i].Subset); err != nil {
			return 0, err
		}
	}
	if !apiequality.Semantic.DeepEqual(res.Status, ws.Status) {
		out := ws.DeepCopy()
		out.Status = res.Status
		// The cached resourceVersion: if the webhook reserved a slot since, this write
		// conflicts and the retry counts with its reservation.
		if _, err := c.kruise.AppsV1beta1().WorkloadSpreads(ns).UpdateStatus(ctx, out, metav1.UpdateOptions{}); err != nil {
			return 0, fmt.Errorf("writing the status of WorkloadSpread %s: %w", key, err)
		}
		logger.V(4).Info("Wrote status", "subsets", len(res.Status.SubsetStatuses))
	}
	// After the status: the subset must be marked unschedulable before the workload
	// recreates the deleted pods, or the webhook would place them there again.
	if err := c.rescheduleStuck(ctx, ws, pods, views, now); err != nil {
		return 0, err
	}
	return res.RequeueAfter, nil
}

// podsOf lists the target's pods: by its selector, and, when it controls its pods
// itself, by controller reference (a Deployment's pods belong to its ReplicaSets).
func (c *Controller) podsOf(ws *appsv1beta1.WorkloadSpread, sel *metav1.LabelSelector, uid types.UID, direct bool) ([]*corev1.Pod, error) {
	selector, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil || selector.Empty() {
		return nil, nil // a target without a selector owns no pods we can tell
	}
	// targetFilter: the pods its selector does not match are not the spread's.
	filter, err := workloadspread.TargetFilterSelector(ws)
	if err != nil {
		return nil, nil
	}
	list, err := c.pods.Pods(ws.Namespace).List(selector)
	if err != nil {
		return nil, err
	}
	out := list[:0:0]
	for _, p := range list {
		if ref := metav1.GetControllerOf(p); direct && (ref == nil || ref.UID != uid) {
			continue
		}
		if !filter.Matches(labels.Set(p.Labels)) {
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

// view is what the rules need of a pod; a pod without this spread's annotation (made
// before the spread) is counted in the first subset whose required term its node
// matches.
func (c *Controller) view(ws *appsv1beta1.WorkloadSpread, p *corev1.Pod) workloadspread.Pod {
	v := workloadspread.Pod{
		Name:        p.Name,
		Created:     p.CreationTimestamp.Time,
		Terminating: p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed,
		Version:     workloadspread.PodVersion(ws, p),
	}
	if _, ok := p.Annotations[corev1.PodDeletionCost]; ok {
		cost := podorder.DeletionCost(p.Annotations)
		v.DeletionCost = &cost
	}
	if pl, ok := workloadspread.PlacementOf(p); ok && pl.Name == ws.Name {
		v.Subset = pl.Subset
	} else if p.Spec.NodeName != "" {
		if node, err := c.nodes.Get(p.Spec.NodeName); err == nil {
			v.Subset = subsetOfNode(ws, node)
		}
	}
	if cond := podcondition.Find(p.Status.Conditions, corev1.PodScheduled); cond != nil &&
		cond.Status == corev1.ConditionFalse && cond.Reason == corev1.PodReasonUnschedulable {
		v.UnschedulableSince = cond.LastTransitionTime.Time
		if v.UnschedulableSince.IsZero() {
			v.UnschedulableSince = p.CreationTimestamp.Time
		}
	}
	return v
}

// subsetOfNode is the first subset whose required term node matches ("" for none; a
// subset without a required term matches every node).
func subsetOfNode(ws *appsv1beta1.WorkloadSpread, node *corev1.Node) string {
	for _, s := range ws.Spec.Subsets {
		if s.RequiredNodeSelectorTerm == nil {
			return s.Name
		}
		sel := nodeaffinity.NewLazyErrorNodeSelector(&corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{*s.RequiredNodeSelectorTerm}})
		if ok, err := sel.Match(node); err == nil && ok {
			return s.Name
		}
	}
	return ""
}

// setDeletionCost patches the pod's pod-deletion-cost annotation (a merge patch of
// that one key, guarded by the pod's uid).
func (c *Controller) setDeletionCost(ctx context.Context, p *corev1.Pod, cost int32) error {
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"uid": p.UID, "annotations": map[string]string{corev1.PodDeletionCost: strconv.Itoa(int(cost))}}})
	if err != nil {
		return err
	}
	_, err = c.kube.CoreV1().Pods(p.Namespace).Patch(ctx, p.Name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: ControllerName})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil // gone or replaced: the next sync sees what is there
	}
	if err != nil {
		return fmt.Errorf("setting the deletion cost of pod %s: %w", p.Name, err)
	}
	return nil
}

// rescheduleStuck (Adaptive) deletes the pods unschedulable for rescheduleCriticalSeconds
// in a subset now marked unschedulable: the workload recreates them and the webhook
// places them in the next subset with room.
func (c *Controller) rescheduleStuck(ctx context.Context, ws *appsv1beta1.WorkloadSpread, pods []*corev1.Pod,
	views []workloadspread.Pod, now time.Time) error {
	s := ws.Spec.ScheduleStrategy
	if s.Type != appsv1beta1.AdaptiveWorkloadSpreadScheduleStrategyType || s.Adaptive == nil || s.Adaptive.RescheduleCriticalSeconds == nil {
		return nil
	}
	critical := time.Duration(*s.Adaptive.RescheduleCriticalSeconds) * time.Second
	deleted := 0 // at most batch.Burst a sync; the deletions' events bring the spread back
	for i, v := range views {
		if v.Terminating || v.Subset == "" || v.UnschedulableSince.IsZero() || now.Sub(v.UnschedulableSince) < critical || deleted == batch.Burst {
			continue
		}
		deleted++
		p := pods[i]
		err := c.kube.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &p.UID}})
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
			return fmt.Errorf("deleting unschedulable pod %s: %w", p.Name, err)
		}
		c.recorder.Eventf(ws, corev1.EventTypeNormal, reasonRescheduled,
			"Deleted pod %s, unschedulable in subset %s for %s, to place it in another subset", p.Name, v.Subset, critical)
	}
	return nil
}

// filteredReplicas is the replicas the subsets' percents are taken of: the target's,
// or with targetFilter.replicasPathList the sum of those fields of the target.
func filteredReplicas(ws *appsv1beta1.WorkloadSpread, t *workloadtarget.Target) (int32, error) {
	f := ws.Spec.TargetFilter
	if f == nil || len(f.ReplicasPathList) == 0 || t.Object == nil {
		return workloadspread.FilteredReplicas(ws, nil, t.Replicas)
	}
	obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(t.Object)
	if err != nil {
		return 0, fmt.Errorf("reading the target's fields: %w", err)
	}
	return workloadspread.FilteredReplicas(ws, obj, t.Replicas)
}

// markExisting patches a pod created before ws with its subset's mark and metadata
// (pkg/workloadspread.ExistingPodPatch), guarded by the pod's uid.
func (c *Controller) markExisting(ctx context.Context, ws *appsv1beta1.WorkloadSpread, p *corev1.Pod, subset string) error {
	for i := range ws.Spec.Subsets {
		if ws.Spec.Subsets[i].Name != subset {
			continue
		}
		patch, err := workloadspread.ExistingPodPatch(ws, &ws.Spec.Subsets[i])
		if err != nil {
			c.recorder.Eventf(ws, corev1.EventTypeWarning, reasonInvalidSpread, "Cannot patch pod %s: %v", p.Name, err)
			return nil
		}
		// The uid in the patch makes it fail on a pod of the same name recreated since.
		var withUID map[string]map[string]any
		if err := json.Unmarshal(patch, &withUID); err != nil {
			return err
		}
		withUID["metadata"]["uid"] = p.UID
		if patch, err = json.Marshal(withUID); err != nil {
			return err
		}
		_, err = c.kube.CoreV1().Pods(p.Namespace).Patch(ctx, p.Name, types.StrategicMergePatchType, patch, metav1.PatchOptions{FieldManager: ControllerName})
		if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("marking pod %s with subset %s: %w", p.Name, subset, err)
		}
		return nil
	}
	return nil
}
