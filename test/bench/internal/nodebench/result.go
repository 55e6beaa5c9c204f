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
	"strings"
	"time"

	"github.com/kruise-native/kruise-native/test/bench/internal/stats"
)

// The workloads, as the tables name them.
const (
	CloneSetInPlace  = "CloneSet InPlaceIfPossible"
	CloneSetRecreate = "CloneSet ReCreate"
	Deployment       = "Deployment"
)

// ShortNames are the workloads' short names: node-bench's -workloads and the rollouts'
// namespaces (nb-<short>-r<round>).
var ShortNames = map[string]string{CloneSetInPlace: "inplace", CloneSetRecreate: "recreate", Deployment: "deployment"}

// WorkloadNamed is the workload of a short name of ShortNames.
func WorkloadNamed(short string) (string, bool) {
	for wl, s := range ShortNames {
		if s == short {
			return wl, true
		}
	}
	return "", false
}

// Results is one run of the benchmark.
type Results struct {
	Date    string    `json:"date"`
	Start   time.Time `json:"start"`
	Commit  string    `json:"commit"`
	Command string    `json:"command"`
	Machine Machine   `json:"machine"`
	Node    Node      `json:"node"`
	// Pods per workload and the maxUnavailable every rollout uses.
	Pods           int    `json:"pods"`
	MaxUnavailable string `json:"maxUnavailable"`
	// Rounds: each round runs every rollout once, in an order rotated by one per round.
	Rounds   int       `json:"rounds"`
	Rollouts []Rollout `json:"rollouts"`
	// Summary: per workload, the median over the rounds.
	Summary []Rollout `json:"summary"`
	Targets []Target  `json:"targets"`
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
	// Round: 1, 2, ...; 0 in Summary.
	Round     int    `json:"round"`
	Namespace string `json:"namespace"`
	Pods      int    `json:"pods"`
	From      string `json:"from"`
	To        string `json:"to"`
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

// find is the finished rollout of a workload in a round, nil when there is none.
func (rs *Results) find(workload string, preDownload bool, round int) *Rollout {
	for i := range rs.Rollouts {
		r := &rs.Rollouts[i]
		if r.Workload == workload && r.PreDownload == preDownload && r.Round == round && r.Error == "" && len(r.PerPodSeconds) > 0 {
			return r
		}
	}
	return nil
}

// rounds lists the rounds the rollouts ran in, in order.
func (rs *Results) rounds() []int {
	var out []int
	for _, r := range rs.Rollouts {
		if !slices.Contains(out, r.Round) {
			out = append(out, r.Round)
		}
	}
	slices.Sort(out)
	return out
}

// ratios are, for each round in which both a and b finished, a's p99 / b's.
func (rs *Results) ratios(a, b func(round int) *Rollout) []float64 {
	var out []float64
	for _, round := range rs.rounds() {
		x, y := a(round), b(round)
		if x != nil && y != nil && y.P99Seconds > 0 {
			out = append(out, x.P99Seconds/y.P99Seconds)
		}
	}
	return out
}

// InPlaceRatio is the target on the in-place rollout's per-pod p99 against the
// Deployment's.
const InPlaceRatio = 0.5

// Verdicts judges the two targets, each on the median over the rounds of the
// ratio within a round (the rollouts of a round ran minutes apart, under the same
// load): the in-place rollout's per-pod p99 at most InPlaceRatio× the Deployment's, and
// with pre-download on below the in-place p99 without it.
func Verdicts(rs *Results) []Target {
	get := func(workload string, pre bool) func(int) *Rollout {
		return func(round int) *Rollout { return rs.find(workload, pre, round) }
	}
	t1 := Target{
		Name: "In-place rollout: p99 per pod (spec change → new image's container running) vs the Deployment's, median of the rounds' ratios",
		Want: fmt.Sprintf("≤ %.1f×", InPlaceRatio),
	}
	if r := rs.ratios(get(CloneSetInPlace, false), get(Deployment, false)); len(r) == 0 {
		t1.Got, t1.Verdict = "no round with both rollouts finished", NotMeasured
	} else {
		m := stats.Median(r)
		t1.Got = fmt.Sprintf("%.2f× (rounds: %s)", m, ratioList(r))
		t1.Verdict = verdict(m <= InPlaceRatio)
	}
	t2 := Target{
		Name: "In-place rollout with PreDownloadImageForInPlaceUpdate: p99 per pod vs the in-place rollout's without it, median of the rounds' ratios",
		Want: "< 1×",
	}
	if r := rs.ratios(get(CloneSetInPlace, true), get(CloneSetInPlace, false)); len(r) == 0 {
		t2.Got, t2.Verdict = "no round with both rollouts finished", NotMeasured
	} else {
		m := stats.Median(r)
		t2.Got = fmt.Sprintf("%.2f× (rounds: %s)", m, ratioList(r))
		t2.Verdict = verdict(m < 1)
	}
	return []Target{t1, t2}
}

// Summarize is, per workload (in the order of first appearance), the median over the
// rounds it finished of each figure; UIDs and IPs kept are the fewest of any round,
// writes by client and pre-download jobs those of its first finished round.
func Summarize(rs *Results) []Rollout {
	type key struct {
		workload string
		pre      bool
	}
	var order []key
	groups := map[key][]*Rollout{}
	for i := range rs.Rollouts {
		r := &rs.Rollouts[i]
		k := key{r.Workload, r.PreDownload}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
			groups[k] = []*Rollout{}
		}
		if r.Error == "" && len(r.PerPodSeconds) > 0 {
			groups[k] = append(groups[k], r)
		}
	}
	var out []Rollout
	for _, k := range order {
		g := groups[k]
		s := Rollout{Workload: k.workload, PreDownload: k.pre}
		if len(g) == 0 {
			s.Error = "no round finished"
			out = append(out, s)
			continue
		}
		of := func(f func(*Rollout) float64) float64 {
			v := make([]float64, len(g))
			for i, r := range g {
				v[i] = f(r)
			}
			return stats.Median(v)
		}
		s.Pods, s.Writes, s.ImagePullJobs = g[0].Pods, g[0].Writes, g[0].ImagePullJobs
		s.ReadySeconds = of(func(r *Rollout) float64 { return r.ReadySeconds })
		s.WallSeconds = of(func(r *Rollout) float64 { return r.WallSeconds })
		s.P50Seconds = of(func(r *Rollout) float64 { return r.P50Seconds })
		s.P99Seconds = of(func(r *Rollout) float64 { return r.P99Seconds })
		s.ControllerWritesPerPod = of(func(r *Rollout) float64 { return r.ControllerWritesPerPod })
		s.AllWritesPerPod = of(func(r *Rollout) float64 { return r.AllWritesPerPod })
		s.UIDsKept, s.IPsKept = g[0].UIDsKept, g[0].IPsKept
		s.CPUSeconds = map[string]float64{}
		for _, r := range g {
			s.UIDsKept, s.IPsKept = min(s.UIDsKept, r.UIDsKept), min(s.IPsKept, r.IPsKept)
			s.PerPodSeconds = append(s.PerPodSeconds, r.PerPodSeconds...)
			for name := range r.CPUSeconds {
				s.CPUSeconds[name] = round2(of(func(r *Rollout) float64 { return r.CPUSeconds[name] }))
			}
		}
		slices.Sort(s.PerPodSeconds)
		out = append(out, s)
	}
	return out
}

func ratioList(r []float64) string {
	parts := make([]string, len(r))
	for i, v := range r {
		parts[i] = fmt.Sprintf("%.2f", v)
	}
	return strings.Join(parts, ", ")
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
