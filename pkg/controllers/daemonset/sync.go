package daemonset

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
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/nodeplacement"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
)

// syncState is what one sync knows about a DaemonSet.
type syncState struct {
	ds   *v1beta1.DaemonSet
	now  time.Time
	revs *podworkload.Revisions
	// nodes are every node with its eligibility, plus gone nodes that still have pods.
	nodes []nodeState
	// pods are every pod the DaemonSet controls; byName the ones not terminating.
	pods    []*corev1.Pod
	byName  map[string]*corev1.Pod
	requeue podworkload.Requeue
	// podWrites: the sync's plan sent pod creations, deletions or in-place updates.
	podWrites bool
}

// nodeState is one node as a sync sees it.
type nodeState struct {
	name        string
	eligibility nodeplacement.Eligibility
	selected    bool
	// pods are the DaemonSet's pods on the node, oldest first, terminating ones included.
	pods []*corev1.Pod
}

// sync reconciles one DaemonSet; it returns when to look again if nothing else will
// trigger it (minReadySeconds running out).
func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	ctx = klog.NewContext(ctx, klog.FromContext(ctx).WithValues("daemonSet", key))
	ds, ok, err := c.Get(ctx, key)
	if !ok || err != nil {
		return 0, err
	}
	loaded, err := c.pods.Load(ctx, podworkload.Workload{
		Object: ds, Selector: ds.Spec.Selector, Template: &ds.Spec.Template,
		CollisionCount: ds.Status.CollisionCount, RevisionHistoryLimit: ds.Spec.RevisionHistoryLimit,
	})
	if loaded == nil || err != nil {
		return 0, err
	}
	st := &syncState{ds: ds, now: c.now(), revs: loaded.Revisions, pods: loaded.Pods, byName: map[string]*corev1.Pod{}}
	if err := c.loadNodes(ctx, st); err != nil {
		return 0, err // no status either: without nodes it would report none desired
	}
	syncErr := c.reconcilePods(ctx, st)
	if err := c.updateStatus(ctx, st, syncErr); err != nil {
		return 0, errors.Join(syncErr, err)
	}
	return st.requeue.Get(), syncErr
}

// loadNodes groups the DaemonSet's pods by node and decides each node's eligibility.
func (c *Controller) loadNodes(ctx context.Context, st *syncState) error {
	logger := klog.FromContext(ctx)
	nodes, err := c.nodes.List(labels.Everything())
	if err != nil {
		return fmt.Errorf("listing nodes: %w", err)
	}
	sel, err := updateSelector(st.ds)
	if err != nil {
		return err
	}
	byNode := map[string][]*corev1.Pod{}
	for _, pod := range st.pods {
		byNode[nodeplacement.NodeOf(pod)] = append(byNode[nodeplacement.NodeOf(pod)], pod)
		if pod.DeletionTimestamp == nil {
			st.byName[pod.Name] = pod
		}
	}
	for _, node := range nodes {
		pods := byNode[node.Name]
		delete(byNode, node.Name)
		sortOldestFirst(pods)
		st.nodes = append(st.nodes, nodeState{
			name: node.Name, eligibility: nodeplacement.NodeEligibility(logger, node, &st.ds.Spec.Template.Spec),
			selected: sel.Matches(labels.Set(node.Labels)), pods: pods,
		})
	}
	// Pods of nodes that are gone (or of no node at all) go too.
	for name, pods := range byNode {
		st.nodes = append(st.nodes, nodeState{name: name, pods: pods})
	}
	return nil
}

// reconcilePods plans and carries out one round of creations, deletions and updates.
func (c *Controller) reconcilePods(ctx context.Context, st *syncState) error {
	desired := 0
	for _, n := range st.nodes {
		if n.eligibility.ShouldRun {
			desired++
		}
	}
	limits, err := resolveLimits(st.ds, desired)
	if err != nil {
		return fmt.Errorf("resolving rollout limits: %w", err)
	}
	plan := Compute(c.planInput(st), limits)
	st.podWrites = len(plan.Create)+len(plan.Delete)+len(plan.UpdateInPlace) > 0

	var errs []error
	note := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	now := metav1.NewTime(st.now)
	note(c.deletePods(ctx, st, plan.Delete))
	note(c.createPods(ctx, st, plan.Create))
	// In parallel, as pods are created and deleted: one after the other, a rollout
	// waits on each patch's round trip and never reaches the client's QPS.
	note(batch.ForEach(plan.UpdateInPlace, podworkload.ParallelWrites, func(name string) error {
		return c.updateInPlace(ctx, st, st.byName[name])
	}))
	active := make([]*corev1.Pod, 0, len(st.byName))
	for _, pod := range st.byName {
		active = append(active, pod)
	}
	note(c.pods.RefreshInPlace(ctx, active, &st.requeue))
	note(c.pods.AdvanceLifecycles(ctx, st.ds, st.ds.Spec.Lifecycle, st.revs, active, now))
	note(c.pods.InitializePods(ctx, active, now))
	note(c.syncPreDownload(ctx, st, limits, desired))
	return errors.Join(errs...)
}

// planInput is what Compute needs of the nodes and their pods.
func (c *Controller) planInput(st *syncState) []Node {
	nodes := make([]Node, 0, len(st.nodes))
	canInPlace := inPlace(st.ds)
	for _, n := range st.nodes {
		node := Node{Name: n.name, Eligibility: n.eligibility, UpdateSelected: n.selected}
		for _, pod := range n.pods {
			ok, wait := podcondition.AvailableIn(pod, st.ds.Spec.MinReadySeconds, st.now)
			st.requeue.After(wait)
			info := Pod{
				Name:        pod.Name,
				Updated:     st.revs.IsUpdated(pod),
				Available:   ok && !inplaceupdate.IsInPlaceUpdating(pod),
				Terminating: pod.DeletionTimestamp != nil,
				Failed:      pod.Status.Phase == corev1.PodFailed || pod.Status.Phase == corev1.PodSucceeded,
			}
			if canInPlace && !info.Updated {
				spec, err := st.revs.InPlaceSpec(pod)
				info.InPlaceable = err == nil && spec != nil
			}
			node.Pods = append(node.Pods, info)
		}
		nodes = append(nodes, node)
	}
	return nodes
}

// createPods creates one pod at the update revision on each node.
func (c *Controller) createPods(ctx context.Context, st *syncState, nodes []string) error {
	if len(nodes) == 0 {
		return nil
	}
	tmpl, err := st.revs.Template(st.revs.Update)
	if err != nil {
		return err
	}
	ref := c.pods.OwnerRef(st.ds)
	pods := make([]*corev1.Pod, 0, len(nodes))
	for _, node := range nodes {
		pod := newPod(st.ds, ref, tmpl, st.revs.Update.Name, node)
		if c.readinessGate {
			lifecycle.InjectReadinessGate(pod, st.ds.Spec.Lifecycle)
		}
		pods = append(pods, pod)
	}
	return c.pods.CreatePods(ctx, st.ds, pods, nil)
}

// deletePods deletes pods by name (a preDelete hook holds a pod in PreparingDelete
// instead); a failed pod is reported first, as kube reports it.
func (c *Controller) deletePods(ctx context.Context, st *syncState, names []string) error {
	if len(names) == 0 {
		return nil
	}
	pods := make([]*corev1.Pod, 0, len(names))
	for _, name := range names {
		pod := st.byName[name]
		if pod == nil {
			continue
		}
		if pod.Status.Phase == corev1.PodFailed {
			c.recorder.Eventf(st.ds, corev1.EventTypeWarning, reasonFailedDaemonPod,
				"Found failed daemon pod %s/%s on node %s, will try to kill it", pod.Namespace, pod.Name, nodeplacement.NodeOf(pod))
		}
		pods = append(pods, pod)
	}
	return c.pods.DeletePods(ctx, st.ds, st.ds.Spec.Lifecycle, pods, nil, metav1.NewTime(st.now))
}

// updateInPlace brings one old pod to the update revision in place, or, when that
// turns out impossible, recreates it (its replacement comes once it terminates).
func (c *Controller) updateInPlace(ctx context.Context, st *syncState, pod *corev1.Pod) error {
	if pod == nil {
		return nil
	}
	done, err := c.pods.UpdateInPlace(ctx, st.ds, st.revs, pod, st.ds.Spec.Lifecycle, nil, metav1.NewTime(st.now), &st.requeue)
	if err != nil || done {
		return err
	}
	return c.deletePods(ctx, st, []string{pod.Name})
}
