package ctrlbench

import (
	"strings"

	"github.com/kruise-native/kruise-native/test/bench/internal/audit"
	"github.com/kruise-native/kruise-native/test/bench/internal/proc"
)

// ScaleSide is one side of the scale phase: many small Deployments or CloneSets made
// ready, left idle, their controller restarted, and 1 % of them given a new image.
type ScaleSide struct {
	Workload   string `json:"workload"`   // Deployment or CloneSet
	Controller string `json:"controller"` // the process measured: kube-controller-manager or kruise-controller
	Workloads  int    `json:"workloads"`
	PodsEach   int    `json:"podsEach"`
	// Ready: from the first create until every workload's status says all its pods
	// are ready (the creates themselves are the benchmark's, and not counted).
	Ready ScaleStep `json:"ready"`
	// Drain: from the end of Ready until the namespace had no write for a while.
	Drain *ScaleDrain `json:"drain,omitempty"`
	// Idle: nothing changes; every write is one too many.
	Idle ScaleStep `json:"idle"`
	// Restart: the controller stopped and started again.
	Restart *ScaleRestart `json:"restart,omitempty"`
	// ImageChange: a new image in ImageChanged workloads at once.
	ImageChange  *ScaleStep `json:"imageChange,omitempty"`
	ImageChanged int        `json:"imageChanged,omitempty"`
	// Servers: API server memory before the side began and after the idle window.
	ServersBefore map[string]proc.Steady `json:"serversBefore,omitempty"`
	ServersIdle   map[string]proc.Steady `json:"serversIdle,omitempty"`
	// Pods after each step, counted from the pods themselves.
	PodsReady       *PodCount `json:"podsReady,omitempty"`
	PodsImageChange *PodCount `json:"podsImageChange,omitempty"`
	Errors          []string  `json:"errors,omitempty"`
}

// ScaleStep is one measured step of a side.
type ScaleStep struct {
	Seconds  float64 `json:"seconds"`
	TimedOut bool    `json:"timedOut,omitempty"`
	// Pods the step concerns: writes per pod are over them.
	Pods int `json:"pods"`
	// ControllerWrites: the side's controller (kube-controller-manager's deployment
	// and replicaset controllers; kruise-controller), events left out.
	ControllerWrites       map[string]int `json:"controllerWrites"`
	ControllerWritesTotal  int            `json:"controllerWritesTotal"`
	ControllerWritesPerPod float64        `json:"controllerWritesPerPod"`
	ControllerEvents       int            `json:"controllerEvents"`
	// AllWrites: every client's writes in the side's namespace but the benchmark's.
	AllWrites       audit.Counts `json:"allWrites"`
	AllWritesTotal  int          `json:"allWritesTotal"`
	AllWritesPerPod float64      `json:"allWritesPerPod"`
	// Processes: CPU seconds and peak RSS of the control plane over the step.
	Processes map[string]proc.Usage `json:"processes,omitempty"`
}

// ScaleRestart is the controller restart: the probe workload (its own namespace,
// scaled by one pod while the controller was down) says when the new process acted.
type ScaleRestart struct {
	// ScaleStep: writes in the side's namespace from the new process's start until
	// the window ends (want 0: nothing there changed).
	ScaleStep
	WindowSeconds float64 `json:"windowSeconds"`
	// ReadySeconds: from starting the process until its health endpoint answered.
	ReadySeconds float64 `json:"readySeconds"`
	// ActedSeconds: from starting the process until the probe workload was done.
	ActedSeconds float64 `json:"actedSeconds"`
	// ProbeWrites: the controller's writes on the probe (its one new pod and status).
	ProbeWrites      map[string]int `json:"probeWrites"`
	ProbeWritesTotal int            `json:"probeWritesTotal"`
	// The new process from its start to the end of the window.
	StartupCPUSeconds float64 `json:"startupCPUSeconds"`
	StartupPeakRSSMiB float64 `json:"startupPeakRSSMiB"`
}

// tally fills the write figures of s from the audit counts of the side's namespace.
func (s *ScaleStep) tally(kind string, counts audit.Counts) {
	delete(counts, "bench")
	s.AllWrites = counts
	s.AllWritesTotal = counts.Total()
	s.ControllerWrites = map[string]int{}
	s.ControllerWritesTotal, s.ControllerEvents = controllerWrites(kind, counts, s.ControllerWrites)
	if s.Pods > 0 {
		s.AllWritesPerPod = round(float64(s.AllWritesTotal) / float64(s.Pods))
		s.ControllerWritesPerPod = round(float64(s.ControllerWritesTotal) / float64(s.Pods))
	}
}

// controllerWrites adds the writes of kind's controller to into, events apart.
func controllerWrites(kind string, counts audit.Counts, into map[string]int) (writes, events int) {
	for _, c := range controllerClients(kind) {
		for k, v := range counts[c] {
			if strings.HasSuffix(k, " events") {
				events += v
				continue
			}
			into[k] += v
			writes += v
		}
	}
	return writes, events
}

// ScaleDrain is the wait for the writes that trail the ready step (mostly events,
// written through the controllers' own rate-limited event clients).
type ScaleDrain struct {
	Seconds     float64      `json:"seconds"`
	Drained     bool         `json:"drained"`
	Writes      audit.Counts `json:"writes"`
	WritesTotal int          `json:"writesTotal"`
}
