// Package report holds the benchmark's results, judges them against the targets of
// the issue, and writes them as JSON, Markdown, PNG charts and the README's section.
package report

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/kruise-native/kruise-native/test/bench/internal/apibench"
	"github.com/kruise-native/kruise-native/test/bench/internal/ceiling"
	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
	"github.com/kruise-native/kruise-native/test/bench/internal/profile"
)

// Results of one `make bench`.
type Results struct {
	Date     string `json:"date"` // YYYY-MM-DD, also the file name
	Started  string `json:"started"`
	Finished string `json:"finished"`
	Commit   string `json:"commit"`
	// Command: how the run was started (its flags, and the stack settings taken from
	// the environment).
	Command string  `json:"command,omitempty"`
	Machine Machine `json:"machine"`
	Config  Config  `json:"config"`

	API []*apibench.Result `json:"api,omitempty"`
	// APICreatePairs: create throughput of the CRD and kruise-apiserver in alternating
	// rounds, what the create-throughput target is judged on when present.
	APICreatePairs *apibench.PairedCreates `json:"apiCreatePairs,omitempty"`
	// APIBuiltinCreatePairs: the same against the built-in Deployments (Base).
	APIBuiltinCreatePairs *apibench.PairedCreates `json:"apiBuiltinCreatePairs,omitempty"`
	Controller            []ctrlbench.Phase       `json:"controller,omitempty"`
	Jobs                  []ctrlbench.JobRun      `json:"jobs,omitempty"`
	// DaemonSets: kube's DaemonSet and the Advanced DaemonSet, create and rollout.
	DaemonSets []ctrlbench.Phase `json:"daemonSets,omitempty"`
	Ceiling    *ceiling.Result   `json:"ceiling,omitempty"`
	// Scale: the opt-in scale phase (-phases=scale).
	Scale *ScaleResults `json:"scale,omitempty"`
	// Growth: the opt-in growth phase (-phases=growth), the scale phase at several sizes.
	Growth *GrowthResults `json:"growth,omitempty"`

	Targets  []Target          `json:"targets"`
	Profiles []profile.Capture `json:"profiles,omitempty"`
	// Errors: phases that failed; the others still count.
	Errors []string `json:"errors,omitempty"`
	Notes  []string `json:"notes"`
}

// Machine the run was on, and whether others used it meanwhile.
type Machine struct {
	NProc         int        `json:"nproc"`
	MemTotalGiB   float64    `json:"memTotalGiB"`
	LoadAvgStart  [3]float64 `json:"loadAvgStart"`
	LoadAvgEnd    [3]float64 `json:"loadAvgEnd"`
	Shared        bool       `json:"shared"`
	OtherAtStart  []string   `json:"otherProcessesAtStart,omitempty"`
	OtherAtFinish []string   `json:"otherProcessesAtFinish,omitempty"`
}

// Config of the run.
type Config struct {
	Nodes          int `json:"nodes"`
	Pods           int `json:"pods"`
	JobNodes       int `json:"jobNodes,omitempty"`
	DaemonSetNodes int `json:"daemonSetNodes,omitempty"`
	Objects        int `json:"objects"`
	Clients        int `json:"clients"`
	Watchers       int `json:"watchers"`
	WatchWrites    int `json:"watchWrites"`
	Lists          int `json:"lists"`
	CreateRounds   int `json:"createRounds,omitempty"`
	RoundObjects   int `json:"roundObjects,omitempty"`
	// APIRounds: rounds of kruise-apiserver against the built-in Deployments.
	APIRounds      int    `json:"apiRounds,omitempty"`
	CeilingPods    int    `json:"ceilingPods"`
	CeilingRounds  int    `json:"ceilingRounds,omitempty"`
	QPS            int    `json:"qps"`
	Burst          int    `json:"burst"`
	ContainerStart string `json:"containerStart"` // the modeled start delay
	Phases         string `json:"phases"`
}

// Write saves r as indented JSON.
func (r *Results) Write(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding results: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Read loads results written by Write.
func Read(path string) (*Results, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	var r Results
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", path, err)
	}
	return &r, nil
}
