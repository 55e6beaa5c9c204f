// Package metrics holds kruise-node-daemon's own Prometheus metrics, registered in
// component-base's legacy registry (served on /metrics with the client-go and
// workqueue metrics).
package metrics

import (
	"sync"

	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
)

var (
	// ImagePulls counts image pull tasks that finished in this process, by result
	// (succeeded, failed). Tags found finished in the stored status after a restart
	// are not counted again.
	ImagePulls = metrics.NewCounterVec(&metrics.CounterOpts{
		Subsystem:      "kruise_node_daemon",
		Name:           "image_pulls_total",
		Help:           "Image pull tasks finished by this daemon, by result (succeeded, failed).",
		StabilityLevel: metrics.ALPHA,
	}, []string{"result"})

	// ContainerRecreations counts containers handled for ContainerRecreateRequests,
	// by result: stopped (the daemon stopped it), succeeded (running again for
	// minStartedSeconds), failed.
	ContainerRecreations = metrics.NewCounterVec(&metrics.CounterOpts{
		Subsystem:      "kruise_node_daemon",
		Name:           "container_recreations_total",
		Help:           "Containers handled for ContainerRecreateRequests, by result (stopped, succeeded, failed).",
		StabilityLevel: metrics.ALPHA,
	}, []string{"result"})

	// RecreateRequestWrites counts this daemon's writes of ContainerRecreateRequests
	// (status contexts, container states, phase Recreating), by result: written,
	// refused (the request changed since the step was decided on it: 409, decided
	// again), failed (any other error).
	RecreateRequestWrites = metrics.NewCounterVec(&metrics.CounterOpts{
		Subsystem:      "kruise_node_daemon",
		Name:           "recreate_request_writes_total",
		Help:           "ContainerRecreateRequest writes by this daemon, by result (written, refused, failed).",
		StabilityLevel: metrics.ALPHA,
	}, []string{"result"})

	// EnvRestarts counts containers stopped because the pod metadata their env reads
	// changed in an in-place update, by result (stopped, failed).
	EnvRestarts = metrics.NewCounterVec(&metrics.CounterOpts{
		Subsystem:      "kruise_node_daemon",
		Name:           "env_restarts_total",
		Help:           "Containers restarted to pick up changed env from pod metadata, by result (stopped, failed).",
		StabilityLevel: metrics.ALPHA,
	}, []string{"result"})

	// ProbeStatusWrites counts this daemon's writes of its NodePodProbe's status (one
	// per change of a probe's state, or a pod leaving the spec), by result (written,
	// refused: 409, written again on the newer object; failed).
	ProbeStatusWrites = metrics.NewCounterVec(&metrics.CounterOpts{
		Subsystem:      "kruise_node_daemon",
		Name:           "probe_status_writes_total",
		Help:           "NodePodProbe status writes by this daemon, by result (written, refused, failed).",
		StabilityLevel: metrics.ALPHA,
	}, []string{"result"})

	// ProbeRuns counts probes run, by result (succeeded, failed): the work that does
	// not turn into writes.
	ProbeRuns = metrics.NewCounterVec(&metrics.CounterOpts{
		Subsystem:      "kruise_node_daemon",
		Name:           "probe_runs_total",
		Help:           "PodProbeMarker probes run by this daemon, by result (succeeded, failed).",
		StabilityLevel: metrics.ALPHA,
	}, []string{"result"})
)

var registerOnce sync.Once

// Register adds the metrics to the legacy registry; calling it again does nothing.
func Register() {
	registerOnce.Do(func() {
		legacyregistry.MustRegister(ImagePulls, ContainerRecreations, RecreateRequestWrites, EnvRestarts, ProbeStatusWrites, ProbeRuns)
	})
}
