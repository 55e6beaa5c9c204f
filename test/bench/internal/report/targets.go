package report

import (
	"fmt"

	"github.com/kruise-native/kruise-native/test/bench/internal/apibench"
	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
)

// Target is one goal of the issue and how this run did.
type Target struct {
	Name string `json:"name"`
	Want string `json:"want"`
	Got  string `json:"got"`
	Met  bool   `json:"met"`
	// Missing: the run has no figure for it (a phase failed or was not run).
	Missing bool `json:"missing,omitempty"`
}

// ModeImmediate is the kwok mode the OpenKruise and Deployment reference figures of
// DESIGN were measured in; wall-time targets are judged there.
const ModeImmediate = "immediate"

// Judge evaluates every target of the issue against r.
func Judge(r *Results) []Target {
	if r.Config.Phases == "scale" { // the opt-in phase alone: only its own targets
		return judgeScale(r.Scale)
	}
	var out []Target
	phase := func(mode, wl, ph string) *ctrlbench.Phase {
		for i := range r.Controller {
			p := &r.Controller[i]
			if p.Mode == mode && p.Workload == wl && p.Phase == ph && !p.TimedOut {
				return p
			}
		}
		return nil
	}
	atMost := func(name string, p *ctrlbench.Phase, get func(*ctrlbench.Phase) float64, limit float64, unit string) {
		t := Target{Name: name, Want: fmt.Sprintf("≤ %g%s", limit, unit)}
		if p == nil {
			t.Missing, t.Got = true, "no figure"
		} else {
			v := get(p)
			t.Got, t.Met = fmt.Sprintf("%.2f%s", v, unit), v <= limit
		}
		out = append(out, t)
	}
	writes := func(p *ctrlbench.Phase) float64 { return p.ControllerWritesPerPod }
	secs := func(p *ctrlbench.Phase) float64 { return p.Seconds }
	modes := []string{ModeImmediate}
	for _, p := range r.Controller {
		if p.Mode != ModeImmediate && !contains(modes, p.Mode) {
			modes = append(modes, p.Mode)
		}
	}
	for _, m := range modes {
		sfx := " (" + m + ")"
		atMost("CloneSet scale-up: controller writes per pod"+sfx, phase(m, ctrlbench.CloneSetInPlace, "scale-up"), writes, 2, "")
		atMost("CloneSet in-place update: controller writes per pod"+sfx, phase(m, ctrlbench.CloneSetInPlace, "rollout"), writes, 2, "")
		atMost("CloneSet recreate update: controller writes per pod"+sfx, phase(m, ctrlbench.CloneSetRecreate, "rollout"), writes, 3, "")
		inPlace, dep := phase(m, ctrlbench.CloneSetInPlace, "rollout"), phase(m, ctrlbench.Deployment, "rollout")
		t := Target{Name: "In-place rollout: all writes per pod (every client) below Deployment's rollout" + sfx}
		if inPlace == nil || dep == nil {
			t.Missing, t.Got, t.Want = true, "no figure", "< Deployment"
		} else {
			t.Want = fmt.Sprintf("< %.2f", dep.AllWritesPerPod)
			t.Got, t.Met = fmt.Sprintf("%.2f", inPlace.AllWritesPerPod), inPlace.AllWritesPerPod < dep.AllWritesPerPod
		}
		out = append(out, t)
	}
	atMost("CloneSet 0→N ready, wall time (immediate)", phase(ModeImmediate, ctrlbench.CloneSetInPlace, "scale-up"), secs, 70, " s")
	inPlace, dep := phase(ModeImmediate, ctrlbench.CloneSetInPlace, "rollout"), phase(ModeImmediate, ctrlbench.Deployment, "rollout")
	t := Target{Name: "In-place rollout no slower than Deployment's rolling update, same run (immediate)"}
	if inPlace == nil || dep == nil {
		t.Missing, t.Got, t.Want = true, "no figure", "≤ Deployment"
	} else {
		t.Want = fmt.Sprintf("≤ %.1f s", dep.Seconds)
		t.Got, t.Met = fmt.Sprintf("%.1f s", inPlace.Seconds), inPlace.Seconds <= dep.Seconds
	}
	out = append(out, t)
	atMost("In-place rollout ≤ 0.5× OpenKruise's 214 s (immediate)", inPlace, secs, 107, " s")

	out = append(out, judgeJobs(r.Jobs))

	out = append(out, judgeAPI(r.API, r.APICreatePairs)...)

	t = Target{Name: "kruise-controller peak RSS with the ceiling's pods in the cluster", Want: "≤ 250 MiB"}
	if r.Ceiling == nil {
		t.Missing, t.Got = true, "no figure"
	} else if u, ok := r.Ceiling.Processes["kruise-controller"]; ok {
		t.Name = fmt.Sprintf("kruise-controller peak RSS at %d pods", r.Ceiling.Pods)
		t.Got, t.Met = fmt.Sprintf("%.0f MiB", u.PeakRSSMiB), u.PeakRSSMiB <= 250
	} else {
		t.Missing, t.Got = true, "no figure"
	}
	peak := 0.0
	for _, p := range r.Controller {
		if u, ok := p.Processes["kruise-controller"]; ok {
			peak = max(peak, u.PeakRSSMiB)
		}
	}
	out = append(out, t)
	if peak > 0 {
		out = append(out, Target{Name: "kruise-controller peak RSS during the controller phases", Want: "≤ 250 MiB",
			Got: fmt.Sprintf("%.0f MiB", peak), Met: peak <= 250})
	}
	return append(out, judgeScale(r.Scale)...)
}

// judgeJobs: the BroadcastJob's controller writes per pod no more than kube's Job's, in
// the same run.
func judgeJobs(runs []ctrlbench.JobRun) Target {
	var bcj, job *ctrlbench.JobRun
	for i := range runs {
		switch r := &runs[i]; {
		case r.TimedOut:
		case r.Workload == ctrlbench.BroadcastJob:
			bcj = r
		case r.Workload == ctrlbench.KubeJob:
			job = r
		}
	}
	t := Target{Name: "BroadcastJob: controller writes per pod no more than kube Job's, same run"}
	if bcj == nil || job == nil {
		t.Missing, t.Got, t.Want = true, "no figure", "≤ Job"
		return t
	}
	t.Want = fmt.Sprintf("≤ %.2f", job.ControllerWritesPerPod)
	t.Got, t.Met = fmt.Sprintf("%.2f", bcj.ControllerWritesPerPod), bcj.ControllerWritesPerPod <= job.ControllerWritesPerPod
	return t
}

func judgeAPI(results []*apibench.Result, pairs *apibench.PairedCreates) []Target {
	var crd, kruise *apibench.Result
	for _, r := range results {
		switch r.Target {
		case "crd":
			crd = r
		case "kruise-apiserver":
			kruise = r
		}
	}
	if crd == nil || kruise == nil {
		return []Target{{Name: "API targets", Want: "both servers measured", Got: "no figure", Missing: true}}
	}
	var out []Target
	ratio := func(name string, got, base, limit float64, lower bool) {
		r := got / base
		t := Target{Name: name, Got: fmt.Sprintf("%.2f× (%.4g vs %.4g)", r, got, base)}
		if lower {
			t.Want, t.Met = fmt.Sprintf("≤ %g×", limit), r <= limit
		} else {
			t.Want, t.Met = fmt.Sprintf("≥ %g×", limit), r >= limit
		}
		out = append(out, t)
	}
	ratio("List of all CloneSets, p99, JSON vs the CRD's", kruise.ListJSON.P99ms, crd.ListJSON.P99ms, 0.5, true)
	if kruise.ListProtobuf != nil {
		ratio("List of all CloneSets, p99, protobuf vs the CRD's JSON", kruise.ListProtobuf.P99ms, crd.ListJSON.P99ms, 0.5, true)
	}
	if pairs != nil && len(pairs.Rounds) > 0 {
		t := Target{Name: fmt.Sprintf("Create throughput vs the CRD's, median of %d alternating rounds", len(pairs.Rounds)),
			Want: "≥ 1×", Got: fmt.Sprintf("%.2f×", pairs.MedianRatio), Met: pairs.MedianRatio >= 1}
		out = append(out, t)
	} else {
		ratio("Create throughput vs the CRD's", kruise.Create.PerSec, crd.Create.PerSec, 1.0, false)
	}
	for _, m := range []struct {
		name string
		p99  float64
	}{{"create", kruise.Create.P99ms}, {"patch while 50 watch", kruise.Watch.Writes.P99ms}} {
		out = append(out, Target{Name: "kruise-apiserver p99 of " + m.name + " at 32 clients",
			Want: "< 1000 ms", Got: fmt.Sprintf("%.0f ms", m.p99), Met: m.p99 < 1000})
	}
	return out
}

func contains(l []string, s string) bool {
	for _, v := range l {
		if v == s {
			return true
		}
	}
	return false
}
