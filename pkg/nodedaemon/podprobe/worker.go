package podprobe

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/metrics"
)

// errNotRunning: the container does not run (yet, or any more); the kubelet does not
// probe such a container either, and no result is recorded.
var errNotRunning = errors.New("container not running")

// worker runs one probe of one pod until its context ends.
type worker struct {
	c      *Controller
	key    key
	pod    v1alpha1.PodProbe
	probe  v1alpha1.ContainerProbe
	cancel context.CancelFunc
}

func (w *worker) run(ctx context.Context, current v1alpha1.ProbeState) {
	logger := klog.FromContext(ctx).WithValues("pod", klog.KRef(w.pod.Namespace, w.pod.Name), "probe", w.probe.Name)
	p := w.probe.Probe
	period := time.Duration(max(p.PeriodSeconds, 1)) * time.Second
	if !w.waitInitialDelay(ctx, time.Duration(p.InitialDelaySeconds)*time.Second) {
		return
	}
	t := threshold{success: p.SuccessThreshold, failure: p.FailureThreshold}
	ticker := time.NewTicker(period)
	defer ticker.Stop()
	for {
		msg, err := w.probeOnce(ctx)
		if !errors.Is(err, errNotRunning) && ctx.Err() == nil {
			ok := err == nil
			if !ok {
				msg = err.Error()
				metrics.ProbeRuns.WithLabelValues("failed").Inc()
			} else {
				metrics.ProbeRuns.WithLabelValues("succeeded").Inc()
			}
			if state := t.observe(ok); state != "" && state != current {
				logger.V(2).Info("Probe state changed", "from", current, "to", state, "message", msg)
				current = state
				w.c.report(w.key, result{state: state, message: msg, at: w.c.nowTime()})
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// waitInitialDelay waits until initialDelay after the container started (from now if
// it has not started yet); false when ctx ended first.
func (w *worker) waitInitialDelay(ctx context.Context, initialDelay time.Duration) bool {
	if initialDelay <= 0 {
		return true
	}
	start := time.Now()
	if pod, err := w.c.pods.Pods(w.pod.Namespace).Get(w.pod.Name); err == nil {
		for _, cs := range pod.Status.ContainerStatuses {
			if cs.Name == w.probe.ContainerName && cs.State.Running != nil {
				start = cs.State.Running.StartedAt.Time
			}
		}
	}
	d := time.Until(start.Add(initialDelay))
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// probeOnce runs the probe once within its timeout: the output on success.
func (w *worker) probeOnce(ctx context.Context) (string, error) {
	pod, err := w.c.pods.Pods(w.pod.Namespace).Get(w.pod.Name)
	if apierrors.IsNotFound(err) || (err == nil && string(pod.UID) != w.pod.UID) {
		return "", errNotRunning
	}
	if err != nil {
		return "", fmt.Errorf("reading pod: %w", err)
	}
	var container *corev1.Container
	for i := range pod.Spec.Containers {
		if pod.Spec.Containers[i].Name == w.probe.ContainerName {
			container = &pod.Spec.Containers[i]
		}
	}
	var containerID string
	for _, cs := range pod.Status.ContainerStatuses {
		if cs.Name == w.probe.ContainerName && cs.State.Running != nil {
			containerID = cs.ContainerID
		}
	}
	if container == nil || containerID == "" {
		return "", errNotRunning
	}
	ip := pod.Status.PodIP
	if ip == "" {
		ip = w.pod.IP
	}
	p := w.probe.Probe
	ctx, cancel := context.WithTimeout(ctx, time.Duration(max(p.TimeoutSeconds, 1))*time.Second)
	defer cancel()
	switch {
	case p.Exec != nil:
		return w.c.runner.Exec(ctx, containerID, p.Exec.Command)
	case p.HTTPGet != nil:
		return "", w.c.runner.HTTPGet(ctx, ip, container.Ports, p.HTTPGet)
	case p.TCPSocket != nil:
		return "", w.c.runner.TCPSocket(ctx, ip, container.Ports, p.TCPSocket)
	}
	return "", fmt.Errorf("probe %s has no exec, httpGet or tcpSocket", w.probe.Name)
}
