package broadcastjob

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/nodeplacement"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/ttl"
)

// sync reconciles one BroadcastJob; it returns when to look again if nothing else
// will trigger it (the active deadline or the TTL running out).
func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	ctx = klog.NewContext(ctx, klog.FromContext(ctx).WithValues("broadcastJob", key))
	job, ok, err := c.Get(ctx, key)
	if !ok || err != nil {
		return 0, err
	}
	now := c.now()
	if finishedCondition(job) != "" {
		return c.expire(ctx, job, now)
	}
	loaded, err := c.pods.Load(ctx, podworkload.Workload{
		Object: job, Selector: selectorOf(job), Template: &job.Spec.Template, NoRevisions: true,
	})
	if loaded == nil || err != nil {
		return 0, err
	}
	nodes, err := c.planNodes(ctx, job, loaded.Pods)
	if err != nil {
		return 0, err // no status either: without nodes it would report none desired
	}
	start := job.Status.StartTime
	if start == nil && !job.Spec.Paused {
		start = &metav1.Time{Time: now}
	}
	in := Input{Spec: &job.Spec, Reported: job.Status, Nodes: nodes, Now: now}
	if start != nil {
		in.StartTime = &start.Time
	}
	plan := Compute(in)

	if plan.Pause {
		// Before status: a status that counts the failure without the pause would not
		// pause the job again on the next sync.
		if job, err = c.pause(ctx, job, plan); err != nil {
			return 0, err
		}
	}
	if plan.Resumed {
		c.recorder.Event(job, corev1.EventTypeNormal, "Continue", "continue to process job")
	}
	var syncErr error
	if plan.DeleteRunning {
		syncErr = c.deleteRunning(ctx, job, loaded.Pods, now)
	}
	syncErr = errors.Join(syncErr, c.createPods(ctx, job, plan.Create))
	if err := c.updateStatus(ctx, job, computeStatus(job, plan, start, now)); err != nil {
		return 0, errors.Join(syncErr, err)
	}
	if plan.Finish != nil {
		c.recordFinish(job, plan.Finish)
		if left, expires := ttl.Left(&metav1.Time{Time: now}, job.Spec.CompletionPolicy.TTLSecondsAfterFinished, now); expires {
			return max(left, time.Millisecond), syncErr
		}
	}
	return plan.DeadlineIn, syncErr
}

// planNodes is every node with its eligibility and the job's pods on it, plus nodes
// that are gone but still have the job's pods.
func (c *Controller) planNodes(ctx context.Context, job *v1beta1.BroadcastJob, pods []*corev1.Pod) ([]Node, error) {
	logger := klog.FromContext(ctx)
	list, err := c.nodes.List(labels.Everything())
	if err != nil {
		return nil, fmt.Errorf("listing nodes: %w", err)
	}
	byNode := map[string][]PodPhase{}
	for _, pod := range pods {
		n := nodeplacement.NodeOf(pod)
		byNode[n] = append(byNode[n], phaseOf(pod, job.Spec.FailurePolicy.RestartLimit))
	}
	out := make([]Node, 0, len(list))
	for _, node := range list {
		eligible := nodeplacement.NodeEligibility(logger, node, &job.Spec.Template.Spec).ShouldRun && nodeplacement.IsReady(node)
		out = append(out, Node{Name: node.Name, Eligible: eligible, Pods: byNode[node.Name]})
		delete(byNode, node.Name)
	}
	for name, phases := range byNode {
		out = append(out, Node{Name: name, Pods: phases})
	}
	return out, nil
}

// createPods creates one pod on each node.
func (c *Controller) createPods(ctx context.Context, job *v1beta1.BroadcastJob, nodes []string) error {
	if len(nodes) == 0 {
		return nil
	}
	ref := c.pods.OwnerRef(job)
	pods := make([]*corev1.Pod, 0, len(nodes))
	for _, node := range nodes {
		pods = append(pods, newPod(job, ref, node))
	}
	return c.pods.CreatePods(ctx, job, pods, nil)
}

// deleteRunning deletes the pods of a finished job that still run: active ones, and
// those over their restart limit.
func (c *Controller) deleteRunning(ctx context.Context, job *v1beta1.BroadcastJob, pods []*corev1.Pod, now time.Time) error {
	var running []*corev1.Pod
	for _, pod := range pods {
		if pod.DeletionTimestamp == nil && pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed {
			running = append(running, pod)
		}
	}
	return c.pods.DeletePods(ctx, job, nil, running, nil, metav1.NewTime(now))
}

// pause sets spec.paused, as OpenKruise's failurePolicy Pause does: the job stops
// creating pods until the user sets it back to false. A merge patch of that one field
// needs no resourceVersion, so a concurrent spec change neither conflicts nor is lost.
// It returns the patched job, whose resourceVersion the status update needs.
func (c *Controller) pause(ctx context.Context, job *v1beta1.BroadcastJob, plan Plan) (*v1beta1.BroadcastJob, error) {
	paused, err := c.kruiseClient.AppsV1beta1().BroadcastJobs(job.Namespace).Patch(ctx, job.Name, types.MergePatchType,
		[]byte(`{"spec":{"paused":true}}`), metav1.PatchOptions{FieldManager: ControllerName})
	if err != nil {
		return nil, fmt.Errorf("pausing at a failed pod: %w", err)
	}
	c.recorder.Eventf(job, corev1.EventTypeWarning, "Paused", "job is paused, due to failed pod: %d pods succeeded, %d pods failed",
		plan.Succeeded, plan.Failed)
	return paused, nil
}

// recordFinish records the job's completion or failure as OpenKruise does.
func (c *Controller) recordFinish(job *v1beta1.BroadcastJob, f *Finish) {
	eventType := corev1.EventTypeNormal
	if f.Type == v1beta1.JobFailed {
		eventType = corev1.EventTypeWarning
	}
	c.recorder.Event(job, eventType, f.Reason, f.Message)
}

// expire deletes a finished job once its ttlSecondsAfterFinished has passed, and
// otherwise asks to look again then.
func (c *Controller) expire(ctx context.Context, job *v1beta1.BroadcastJob, now time.Time) (time.Duration, error) {
	return ttl.Expire(ctx, job.Status.CompletionTime, job.Spec.CompletionPolicy.TTLSecondsAfterFinished, now, func(ctx context.Context) error {
		klog.FromContext(ctx).V(2).Info("Deleting a finished BroadcastJob past its TTL")
		err := c.kruiseClient.AppsV1beta1().BroadcastJobs(job.Namespace).Delete(ctx, job.Name,
			metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &job.UID}})
		if err != nil {
			return fmt.Errorf("deleting BroadcastJob %s/%s: %w", job.Namespace, job.Name, err)
		}
		return nil
	})
}
