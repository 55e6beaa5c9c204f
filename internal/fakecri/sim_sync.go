package fakecri

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/klog/v2"
)

// syncPod makes the runtime match one pod and writes what changed into its status, in
// one write. Everything it decides is derived from the pod and the runtime as they are
// now (a container's restart count travels in its annotations), so a sync that repeats,
// or runs on a stale pod, does the same thing again or nothing.
func (k *KubeletSim) syncPod(ctx context.Context, key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil // not a pod key; nothing to retry
	}
	pod, err := k.podFromCache(namespace, name)
	if err != nil {
		return err
	}
	if pod == nil {
		k.recordWrite(key, "")
	}
	if k.cacheBehindWrite(key, pod) {
		return nil // the event of our own write brings the pod back
	}
	sandboxes, containers := k.runtime.podView(namespace, name)
	if pod == nil || pod.DeletionTimestamp != nil || pod.Spec.NodeName != k.nodeName {
		return k.removeSandboxes(ctx, sandboxes, func(*Sandbox) bool { return true })
	}
	if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
		// The kubelet stops the containers of a pod the API shows terminal and reports
		// them terminated (someone other than the kubelet may have ended it: OpenKruise's
		// SidecarTerminator), then the sandbox goes.
		if err := k.reportStopped(ctx, key, pod, containers); err != nil {
			return err
		}
		return k.removeSandboxes(ctx, sandboxes, func(*Sandbox) bool { return true })
	}
	// A namesake pod from before (same name, other UID) leaves its sandboxes behind.
	if err := k.removeSandboxes(ctx, sandboxes, func(sb *Sandbox) bool { return sb.UID != string(pod.UID) }); err != nil {
		return err
	}
	if pod.Status.Phase != corev1.PodRunning {
		return nil // kwok has not started it yet: leave it to kwok
	}

	sb, err := k.ensureSandbox(ctx, pod, sandboxes)
	if err != nil {
		return err
	}
	statuses := make([]corev1.ContainerStatus, len(pod.Status.ContainerStatuses))
	for i := range pod.Status.ContainerStatuses {
		pod.Status.ContainerStatuses[i].DeepCopyInto(&statuses[i])
	}
	// Fetched once per sync, and only when a container starts.
	envPod := sync.OnceValue(func() *corev1.Pod { return k.envSource(ctx, pod) })
	changed := false
	var errs []error
	for i := range pod.Spec.Containers {
		spec := &pod.Spec.Containers[i]
		idx := statusIndex(statuses, spec.Name)
		if idx < 0 || statuses[idx].Image != spec.Image {
			// kwok has not reported this container, or has not yet completed an image
			// change (its in-place stage will): nothing to match yet.
			continue
		}
		cur, prev, err := k.ensureContainer(ctx, pod, envPod, spec, &statuses[idx], sb, containersNamed(containers, sb.ID, spec.Name))
		if err != nil {
			errs = append(errs, fmt.Errorf("container %s: %w", spec.Name, err))
			continue
		}
		if desired := desiredStatus(&statuses[idx], cur, prev); needsWrite(&statuses[idx], &desired) {
			statuses[idx] = desired
			changed = true
		}
	}
	if changed {
		if err := k.writeContainerStatuses(ctx, pod, statuses); err != nil {
			errs = append(errs, err)
		} else {
			k.recordWrite(key, pod.ResourceVersion)
		}
	}
	return errors.Join(errs...)
}

// ensureSandbox returns the pod's ready sandbox, creating one (and removing sandboxes
// that are no longer ready) when there is none.
func (k *KubeletSim) ensureSandbox(ctx context.Context, pod *corev1.Pod, sandboxes []Sandbox) (*Sandbox, error) {
	var attempt uint32
	for i := range sandboxes {
		sb := &sandboxes[i]
		if sb.UID != string(pod.UID) {
			continue
		}
		if sb.State == runtimeapi.PodSandboxState_SANDBOX_READY {
			return sb, nil
		}
		attempt = max(attempt, sb.Attempt+1)
	}
	if err := k.removeSandboxes(ctx, sandboxes, func(sb *Sandbox) bool { return sb.UID == string(pod.UID) }); err != nil {
		return nil, err
	}
	resp, err := k.runtime.RunPodSandbox(ctx, &runtimeapi.RunPodSandboxRequest{Config: sandboxConfig(pod, attempt)})
	if err != nil {
		return nil, fmt.Errorf("run sandbox: %w", err)
	}
	klog.FromContext(ctx).V(2).Info("Started pod sandbox", "sandbox", resp.PodSandboxId, "attempt", attempt)
	return &Sandbox{ID: resp.PodSandboxId, UID: string(pod.UID), State: runtimeapi.PodSandboxState_SANDBOX_READY}, nil
}

// ensureContainer makes sure the spec container has a current container in the
// sandbox and returns it, with the one it replaced (for lastState), if any:
//   - none yet: start one, with the restart count kwok reports;
//   - it runs another image than the spec (kwok completed an in-place image change),
//     or kwok reports more restarts than it has (a kwok Stage restarted it): replace
//     it, keeping kwok's restart count (the stage counted the restart);
//   - it exited: restart it if the pod's restartPolicy says so, counting the restart;
//   - it was created but never started: start it.
func (k *KubeletSim) ensureContainer(ctx context.Context, pod *corev1.Pod, envPod func() *corev1.Pod, spec *corev1.Container, cs *corev1.ContainerStatus,
	sb *Sandbox, history []Container) (cur, prev *Container, err error) {
	if len(history) > 0 {
		cur = &history[0]
	}
	if len(history) > 1 {
		prev = &history[1]
	}
	logger := klog.FromContext(ctx).WithValues("container", spec.Name)
	switch {
	case cur == nil:
		cur, err = k.startContainer(ctx, envPod(), spec, sb, 0, cs.RestartCount)
		return cur, nil, err

	case !sameImage(cur.Image, spec.Image):
		logger.V(2).Info("Replacing container for its new image", "old", cur.Image, "new", spec.Image)
		return k.replaceContainer(ctx, pod, envPod, spec, cs, sb, cur, history, "its image change")

	case cs.RestartCount > restartCountOf(cur):
		// kwok restarted the container (hack/local/kwok/pod-job-restart.yaml: a job
		// pod's container failing under restartPolicy OnFailure); the runtime follows.
		logger.V(2).Info("Replacing container kwok restarted", "restartCount", cs.RestartCount)
		return k.replaceContainer(ctx, pod, envPod, spec, cs, sb, cur, history, "its restart")

	case cur.State == runtimeapi.ContainerState_CONTAINER_RUNNING && cs.State.Terminated != nil &&
		cs.RestartCount == restartCountOf(cur) && (cs.ContainerID == "" || cs.ContainerID == ContainerIDPrefix+cur.ID):
		// kwok ran the container to its end (hack/local/kwok/pod-job-main-complete.yaml:
		// a job pod's main container exits while its sidecars run on); the runtime
		// follows, with kwok's exit code.
		logger.V(2).Info("Exiting container kwok reports terminated", "exitCode", cs.State.Terminated.ExitCode)
		if err := k.runtime.ExitContainer(cur.ID, cs.State.Terminated.ExitCode, cs.State.Terminated.Reason); err != nil {
			return nil, nil, err
		}
		if c, ok := k.runtime.Container(cur.ID); ok {
			cur = &c
		}
		return cur, prev, nil // under restartPolicy Always the exit's event restarts it

	case cur.State == runtimeapi.ContainerState_CONTAINER_EXITED:
		if !shouldRestart(pod.Spec.RestartPolicy, cur.ExitCode) {
			return cur, prev, nil
		}
		logger.V(2).Info("Restarting exited container", "exitCode", cur.ExitCode, "restartCount", restartCountOf(cur)+1)
		next, err := k.startContainer(ctx, envPod(), spec, sb, cur.Attempt+1, restartCountOf(cur)+1)
		if err != nil {
			return nil, nil, err
		}
		k.removeOlder(ctx, history[1:])
		return next, cur, nil

	case cur.State == runtimeapi.ContainerState_CONTAINER_CREATED:
		if _, err := k.runtime.StartContainer(ctx, &runtimeapi.StartContainerRequest{ContainerId: cur.ID}); err != nil {
			return nil, nil, fmt.Errorf("start container %s: %w", cur.ID, err)
		}
		if c, ok := k.runtime.Container(cur.ID); ok {
			cur = &c
		}
	}
	return cur, prev, nil
}

// replaceContainer stops cur and starts its successor with the restart count kwok
// reports: kwok changed the container (its image, or a restart) and counted it.
func (k *KubeletSim) replaceContainer(ctx context.Context, pod *corev1.Pod, envPod func() *corev1.Pod, spec *corev1.Container, cs *corev1.ContainerStatus,
	sb *Sandbox, cur *Container, history []Container, why string) (next, prev *Container, err error) {
	if cur.State == runtimeapi.ContainerState_CONTAINER_RUNNING {
		if _, err := k.runtime.StopContainer(ctx, &runtimeapi.StopContainerRequest{ContainerId: cur.ID, Timeout: terminationGrace(pod)}); err != nil {
			return nil, nil, fmt.Errorf("stop container %s for %s: %w", cur.ID, why, err)
		}
		if c, ok := k.runtime.Container(cur.ID); ok {
			cur = &c
		}
	}
	next, err = k.startContainer(ctx, envPod(), spec, sb, cur.Attempt+1, cs.RestartCount)
	if err != nil {
		return nil, nil, err
	}
	k.removeOlder(ctx, history[1:])
	return next, cur, nil
}

// startContainer creates and starts a container for spec with the env resolved from
// pod (envSource: the pod as it is now). The image is put in the store directly: kwok already reported
// the pod running, so the pull is taken as done (pull behaviours are for the node
// daemon's own pulls).
func (k *KubeletSim) startContainer(ctx context.Context, pod *corev1.Pod, spec *corev1.Container, sb *Sandbox,
	attempt uint32, restartCount int32) (*Container, error) {
	if _, err := k.runtime.AddImage(spec.Image); err != nil {
		return nil, err
	}
	created, err := k.runtime.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{
		PodSandboxId: sb.ID,
		Config:       containerConfig(pod, spec, attempt, restartCount),
	})
	if err != nil {
		return nil, fmt.Errorf("create container: %w", err)
	}
	if _, err := k.runtime.StartContainer(ctx, &runtimeapi.StartContainerRequest{ContainerId: created.ContainerId}); err != nil {
		return nil, fmt.Errorf("start container %s: %w", created.ContainerId, err)
	}
	c, ok := k.runtime.Container(created.ContainerId)
	if !ok {
		return nil, fmt.Errorf("container %s vanished right after its start", created.ContainerId)
	}
	klog.FromContext(ctx).V(2).Info("Started container", "container", spec.Name, "id", c.ID, "attempt", attempt, "image", c.Image)
	return &c, nil
}

// envSource is the pod to resolve a starting container's env from: the pod as the API
// server has it now. The cache can lag behind a metadata change made just before a
// container was stopped to pick it up (the usual order for env-from-metadata updates),
// and a restart must not start the container with the old values. On error the cached
// pod has to do.
func (k *KubeletSim) envSource(ctx context.Context, cached *corev1.Pod) *corev1.Pod {
	live, err := k.client.CoreV1().Pods(cached.Namespace).Get(ctx, cached.Name, metav1.GetOptions{})
	if err != nil || live.UID != cached.UID {
		if err != nil {
			klog.FromContext(ctx).V(2).Info("Resolving env from the cached pod", "err", err)
		}
		return cached
	}
	return live
}

// removeOlder removes the dead containers that came before the one just replaced (that
// one stays for lastState), as kubelet's garbage collection does, so a long test does
// not pile them up.
func (k *KubeletSim) removeOlder(ctx context.Context, older []Container) {
	for _, c := range older {
		if c.State == runtimeapi.ContainerState_CONTAINER_RUNNING {
			continue
		}
		if _, err := k.runtime.RemoveContainer(ctx, &runtimeapi.RemoveContainerRequest{ContainerId: c.ID}); err != nil {
			klog.FromContext(ctx).V(2).Info("Could not remove an old container", "id", c.ID, "err", err)
		}
	}
}

// removeSandboxes stops and removes the sandboxes (and so their containers) that match.
func (k *KubeletSim) removeSandboxes(ctx context.Context, sandboxes []Sandbox, match func(*Sandbox) bool) error {
	for i := range sandboxes {
		sb := &sandboxes[i]
		if !match(sb) {
			continue
		}
		if _, err := k.runtime.StopPodSandbox(ctx, &runtimeapi.StopPodSandboxRequest{PodSandboxId: sb.ID}); err != nil {
			return fmt.Errorf("stop sandbox %s: %w", sb.ID, err)
		}
		if _, err := k.runtime.RemovePodSandbox(ctx, &runtimeapi.RemovePodSandboxRequest{PodSandboxId: sb.ID}); err != nil {
			return fmt.Errorf("remove sandbox %s: %w", sb.ID, err)
		}
		klog.FromContext(ctx).V(2).Info("Removed pod sandbox", "sandbox", sb.ID, "uid", sb.UID)
	}
	return nil
}

// containersNamed returns the sandbox's containers for one spec container, newest
// (highest attempt) first.
func containersNamed(all []Container, sandboxID, name string) []Container {
	var out []Container
	for _, c := range all {
		if c.SandboxID == sandboxID && c.Labels[LabelContainerName] == name {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Attempt > out[j].Attempt })
	return out
}

func statusIndex(statuses []corev1.ContainerStatus, name string) int {
	for i := range statuses {
		if statuses[i].Name == name {
			return i
		}
	}
	return -1
}

// sameImage compares a stored (normalized) image with a spec image.
func sameImage(stored, specImage string) bool {
	ref, err := NormalizeImageRef(specImage)
	if err != nil {
		return stored == specImage
	}
	return stored == ref
}

// shouldRestart applies the pod's restartPolicy to an exited container.
func shouldRestart(policy corev1.RestartPolicy, exitCode int32) bool {
	switch policy {
	case corev1.RestartPolicyNever:
		return false
	case corev1.RestartPolicyOnFailure:
		return exitCode != 0
	default:
		return true
	}
}
