// Package nodebench is the rollout benchmark on a real node (issue 38, part 1;
// `make bench-node`): a CloneSet updating in place, a CloneSet recreating its pods and
// a Deployment, each of N pods of the same small image rolled to a new tag at the same
// maxUnavailable on the single-node cluster of test/cluster/harness (containerd,
// kubelet), and the in-place rollout once more with PreDownloadImageForInPlaceUpdate on.
//
// This file holds the results and the pure rules over them (percentiles, verdicts);
// the rest drives the cluster.
package nodebench

import (
	"fmt"
	"slices"
	"time"

	"github.com/kruise-native/kruise-native/test/bench/internal/stats"
)

// The workloads, as the tables name them.
const (
	CloneSetInPlace  = "CloneSet InPlaceIfPossible"
	CloneSetRecreate = "CloneSet ReCreate"
	Deployment       = "Deployment"
)

// Results is one run of the benchmark.
type Results struct {
	Date    string    `json:"date"`
	Start   time.Time `json:"start"`
	Commit  string    `json:"commit"`
	Command string    `json:"command"`
	Machine Machine   `json:"machine"`
	Node    Node      `json:"node"`
	// Pods per workload and the maxUnavailable every rollout uses.
	Pods           int       `json:"pods"`
	MaxUnavailable string    `json:"maxUnavailable"`
	Rollouts       []Rollout `json:"rollouts"`
	Targets        []Target  `json:"targets"`
	// HostRestored: the harness's teardown left the host as its snapshot before the
	// cluster (its own check); the error otherwise.
	HostRestored string   `json:"hostRestored"`
	Notes        []string `json:"notes"`
}

// Machine is what else ran while the benchmark did.
type Machine struct {
	Cores        int        `json:"cores"`
	LoadAvgStart [3]float64 `json:"loadAvgStart"`
	LoadAvgEnd   [3]float64 `json:"loadAvgEnd"`
	// Others: heavy programs not the benchmark's at the start (other helpers' stacks
	// and builds), e.g. "kube-apiserver×2".
	Others []string `json:"others"`
}

// Node describes the real node.
type Node struct {
	Kubelet    string `json:"kubelet"`
	Containerd string `json:"containerd"`
	Runtime    string `json:"runtime"`
	Kernel     string `json:"kernel"`
}

// Rollout is one workload's image rollout.
type Rollout struct {
	Workload    string `json:"workload"`
	PreDownload bool   `json:"preDownload"`
	Namespace   string `json:"namespace"`
	Pods        int    `json:"pods"`
	From        string `json:"from"`
	To          string `json:"to"`
	// ReadySeconds: the workload's create until all its pods ran and were Ready.
	ReadySeconds float64 `json:"readySeconds"`
	// WallSeconds: the image patch until every pod of the workload runs the new image
	// and is Ready, and no pod of the old image is left.
	WallSeconds float64 `json:"wallSeconds"`
	// PerPodSeconds: for each pod that came to run the new image, the patch until the
	// watch saw its container running that image (started); sorted.
	PerPodSeconds []float64 `json:"perPodSeconds"`
	P50Seconds    float64   `json:"p50Seconds"`
	P99Seconds    float64   `json:"p99Seconds"`
	// UIDsKept: pods at the end whose UID a pod had before the rollout; IPsKept: pods
	// at the end whose address a pod of the workload had before it.
	UIDsKept int `json:"uidsKept"`
	IPsKept  int `json:"ipsKept"`
	// Controller writes: the workload's controller(s) (kube-apiserver's audit log, the
	// workload's namespace, Events left out), from the patch until done + 3 s.
	ControllerWrites       int     `json:"controllerWrites"`
	ControllerWritesPerPod float64 `json:"controllerWritesPerPod"`
	AllWrites              int     `json:"allWrites"`
	AllWritesPerPod        float64 `json:"allWritesPerPod"`
	// Writes by client, then by "verb resource".
	Writes map[string]map[string]int `json:"writes"`
	// CPUSeconds per process over the rollout (kubelet, containerd, containerd shims,
	// kube-controller-manager, kruise-controller, kruise-node-daemon).
	CPUSeconds map[string]float64 `json:"cpuSeconds"`
	// ImagePullJobs: the pre-download jobs kruise-controller created (its audited
	// creates).
	ImagePullJobs int `json:"imagePullJobs"`
	// Error: the rollout did not finish (the other figures are partial).
	Error string `json:"error,omitempty"`
}

// Target is one verdict.
type Target struct {
	Name string `json:"name"`
	Want string `json:"want"`
	Got  string `json:"got"`
	// Verdict is "met", "missed" or "not measured".
	Verdict string `json:"verdict"`
}

// Verdicts.
const (
	Met         = "met"
	Missed      = "missed"
	NotMeasured = "not measured"
)

// Summarize sorts the per-pod times and sets the percentiles (nearest rank, as the
// rest of the benchmark).
func (r *Rollout) Summarize(perPod []time.Duration) {
	sorted := slices.Clone(perPod)
	slices.Sort(sorted)
	r.PerPodSeconds = make([]float64, len(sorted))
	for i, d := range sorted {
		r.PerPodSeconds[i] = seconds(d)
	}
	r.P50Seconds = seconds(stats.Percentile(sorted, 50))
	r.P99Seconds = seconds(stats.Percentile(sorted, 99))
}

// SetWrites sets the per-pod figures from the counts.
func (r *Rollout) SetWrites(controller, all int) {
	r.ControllerWrites, r.AllWrites = controller, all
	if r.Pods > 0 {
		r.ControllerWritesPerPod = round2(float64(controller) / float64(r.Pods))
		r.AllWritesPerPod = round2(float64(all) / float64(r.Pods))
	}
}

// Find is the rollout of a workload with pre-download on or off, nil when the run has
// none that finished.
func (rs *Results) Find(workload string, preDownload bool) *Rollout {
	for i := range rs.Rollouts {
		r := &rs.Rollouts[i]
		if r.Workload == workload && r.PreDownload == preDownload && r.Error == "" && len(r.PerPodSeconds) > 0 {
			return r
		}
	}
	return nil
}

// InPlaceRatio is the target on the in-place rollout's per-pod p99 against the
// Deployment's in the same run.
const InPlaceRatio = 0.5

// Verdicts judges the two targets: the in-place rollout's per-pod p99 at most
// InPlaceRatio× the Deployment's, and with pre-download on below the in-place p99 with it off.
func Verdicts(rs *Results) []Target {
	inPlace, deploy := rs.Find(CloneSetInPlace, false), rs.Find(Deployment, false)
	t1 := Target{
		Name: "In-place rollout: p99 per pod (spec change → new image's container running) vs the Deployment's, same run",
		Want: fmt.Sprintf("≤ %.1f×", InPlaceRatio),
	}
	switch {
	case inPlace == nil || deploy == nil || deploy.P99Seconds <= 0:
		t1.Got, t1.Verdict = "a rollout did not finish", NotMeasured
	default:
		ratio := inPlace.P99Seconds / deploy.P99Seconds
		t1.Want = fmt.Sprintf("≤ %.2f s (%.1f× %.2f s)", InPlaceRatio*deploy.P99Seconds, InPlaceRatio, deploy.P99Seconds)
		t1.Got = fmt.Sprintf("%.2f s (%.2f×)", inPlace.P99Seconds, ratio)
		t1.Verdict = verdict(ratio <= InPlaceRatio)
	}
	pre := rs.Find(CloneSetInPlace, true)
	t2 := Target{
		Name: "In-place rollout with PreDownloadImageForInPlaceUpdate: p99 per pod below the in-place rollout's without it",
		Want: "< the p99 without",
	}
	switch {
	case inPlace == nil || pre == nil:
		t2.Got, t2.Verdict = "a rollout did not finish", NotMeasured
	default:
		t2.Want = fmt.Sprintf("< %.2f s", inPlace.P99Seconds)
		t2.Got = fmt.Sprintf("%.2f s (%.2f×)", pre.P99Seconds, pre.P99Seconds/inPlace.P99Seconds)
		t2.Verdict = verdict(pre.P99Seconds < inPlace.P99Seconds)
	}
	return []Target{t1, t2}
}

func verdict(ok bool) string {
	if ok {
		return Met
	}
	return Missed
}

func seconds(d time.Duration) float64 { return round3(d.Seconds()) }

func round2(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }
func round3(v float64) float64 { return float64(int64(v*1000+0.5)) / 1000 }
