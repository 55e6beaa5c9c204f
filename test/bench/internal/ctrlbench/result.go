// Package ctrlbench compares kruise-controller's CloneSet with kube-controller-manager's
// Deployment, and the Advanced DaemonSet with kube's DaemonSet, at equal client QPS/burst:
// scale-up (a daemon set's creation) and image rollout of the same number of pods, with the writes every client made (from kube-apiserver's audit log), the time
// to ready and what the controller processes cost.
package ctrlbench

import (
	"strings"

	"github.com/kruise-native/kruise-native/test/bench/internal/proc"
)

// Phase is one measured step of one workload.
type Phase struct {
	Mode     string `json:"mode"`     // "immediate" or "2s container start"
	Workload string `json:"workload"` // Deployment, CloneSet InPlaceIfPossible, ..., DaemonSet, Advanced DaemonSet ...
	Phase    string `json:"phase"`    // PhaseScaleUp, PhaseCreate (daemon sets) or PhaseRollout
	Pods     int    `json:"pods"`
	// Seconds until the workload's status and its pods both say done.
	Seconds  float64 `json:"seconds"`
	TimedOut bool    `json:"timedOut,omitempty"`
	// Curve: seconds at which the 1st, 2nd, ... pod ran the phase's image and was Ready.
	Curve []float64 `json:"curve"`
	// SpecCurve: seconds at which the 1st, 2nd, ... pod had the phase's image in its
	// spec (was created with it or patched): the controller's side of Curve.
	SpecCurve []float64 `json:"specCurve,omitempty"`
	// ControllerWrites: the workload controller's writes (Deployment: its deployment
	// and replicaset controllers), events left out, by "verb resource".
	ControllerWrites       map[string]int `json:"controllerWrites"`
	ControllerWritesPerPod float64        `json:"controllerWritesPerPod"`
	ControllerEvents       int            `json:"controllerEvents"`
	// ControllerConflicts: the controller's writes answered 409 Conflict (sent from a
	// stale copy), by "verb resource"; counted in ControllerWrites too. Empty when
	// there were none, nil in results from before they were counted.
	ControllerConflicts map[string]int `json:"controllerConflicts"`
	// AllWrites: every client's writes in the namespace, events included, by client
	// then "verb resource"; the benchmark's own two patches are left out.
	AllWrites       map[string]map[string]int `json:"allWrites"`
	AllWritesPerPod float64                   `json:"allWritesPerPod"`
	// KruiseControllerMetric: kruise_controller_api_writes_total over the phase
	// (its own count, all namespaces), a cross-check of the audit figures.
	KruiseControllerMetric map[string]float64 `json:"kruiseControllerMetric,omitempty"`
	// Processes: CPU seconds and peak RSS of each control-plane process over the phase.
	Processes map[string]proc.Usage `json:"processes"`
}

// controllerClients are the audit clients that count as the workload's controller.
func controllerClients(kind string) []string {
	switch kind {
	case Deployment:
		return []string{"kube-controller-manager/deployment-controller", "kube-controller-manager/replicaset-controller"}
	case KubeJob:
		return []string{"kube-controller-manager/job-controller"}
	case KubeDaemonSet:
		return []string{"kube-controller-manager/daemon-set-controller"}
	}
	return []string{"kruise-controller"}
}

// ControllerProcess is the process that runs kind's controller, whose CPU and memory
// the reports show.
func ControllerProcess(kind string) string {
	if strings.HasPrefix(controllerClients(kind)[0], "kube-controller-manager/") {
		return "kube-controller-manager"
	}
	return "kruise-controller"
}
