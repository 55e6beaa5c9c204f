package report

import (
	"fmt"
	"strings"

	"github.com/kruise-native/kruise-native/test/bench/internal/apibench"
	"github.com/kruise-native/kruise-native/test/bench/internal/ceiling"
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

// Judge evaluates the targets of the issue against r: those of every phase the run
// was asked for (a phase that failed gives targets with no figure).
func Judge(r *Results) []Target {
	if r.Config.Phases == "scale" { // the opt-in phase alone: only its own targets
		return judgeScale(r.Scale)
	}
	if r.Config.Phases == "growth" {
		return judgeGrowth(r.Growth)
	}
	var out []Target
	if ran(r, "controller") {
		out = append(out, judgeControllers(r.Controller)...)
	}
	if ran(r, "jobs") {
		out = append(out, judgeJobs(r.Jobs))
	}
	if ran(r, "daemonsets") {
		out = append(out, judgeDaemonSets(r.DaemonSets)...)
	}
	if ran(r, "api") {
		out = append(out, judgeAPI(r.API, r.APICreatePairs)...)
		if r.Config.APIRounds > 0 { // runs that predate the built-in comparison have none
			out = append(out, judgeBuiltin(r.API, r.APIBuiltinCreatePairs)...)
		}
	}
	if r.Config.Phases != "" && ran(r, "scale") { // opt-in: never judged for runs that predate it
		out = append(out, judgeScale(r.Scale)...)
	}
	if r.Config.Phases != "" && ran(r, "growth") {
		out = append(out, judgeGrowth(r.Growth)...)
	}
	if ran(r, "ceiling") {
		out = append(out, judgeWebhookCost(r.Ceiling))
		t := Target{Name: "kruise-controller peak RSS with the ceiling's pods in the cluster", Want: "≤ 250 MiB"}
		if r.Ceiling == nil {
			t.Missing, t.Got = true, "no figure"
		} else if u, ok := r.Ceiling.Processes["kruise-controller"]; ok {
			t.Name = fmt.Sprintf("kruise-controller peak RSS at %d pods", r.Ceiling.Pods)
			t.Got, t.Met = fmt.Sprintf("%.0f MiB", u.PeakRSSMiB), u.PeakRSSMiB <= 250
		} else {
			t.Missing, t.Got = true, "no figure"
		}
		out = append(out, t)
	}
	peak := 0.0
	for _, p := range r.Controller {
		if u, ok := p.Processes["kruise-controller"]; ok {
			peak = max(peak, u.PeakRSSMiB)
		}
	}
	if peak > 0 {
		out = append(out, Target{Name: "kruise-controller peak RSS during the controller phases", Want: "≤ 250 MiB",
			Got: fmt.Sprintf("%.0f MiB", peak), Met: peak <= 250})
	}
	return out
}

// ran reports whether the run was asked for phase (results written before the
// phases were recorded ran them all).
func ran(r *Results, phase string) bool {
	if r.Config.Phases == "" {
		return true
	}
	for _, p := range strings.Split(r.Config.Phases, ",") {
		if strings.TrimSpace(p) == phase {
			return true
		}
	}
	return false
}

// findPhase is the phase of mode, workload and name, unless it timed out.
func findPhase(phases []ctrlbench.Phase, mode, wl, name string) *ctrlbench.Phase {
	for i := range phases {
		p := &phases[i]
		if p.Mode == mode && p.Workload == wl && p.Phase == name && !p.TimedOut {
			return p
		}
	}
	return nil
}

// atMost: get(p) is at most limit; no figure without p.
func atMost(name string, p *ctrlbench.Phase, get func(*ctrlbench.Phase) float64, limit float64, unit string) Target {
	t := Target{Name: name, Want: fmt.Sprintf("≤ %g%s", limit, unit)}
	if p == nil {
		t.Missing, t.Got = true, "no figure"
	} else {
		v := get(p)
		t.Got, t.Met = fmt.Sprintf("%.2f%s", v, unit), v <= limit
	}
	return t
}

func controllerWritesPerPod(p *ctrlbench.Phase) float64 { return p.ControllerWritesPerPod }

func seconds(p *ctrlbench.Phase) float64 { return p.Seconds }

// judgeControllers: CloneSet against Deployment, in every kwok mode measured.
func judgeControllers(phases []ctrlbench.Phase) []Target {
	var out []Target
	phase := func(mode, wl, name string) *ctrlbench.Phase { return findPhase(phases, mode, wl, name) }
	writes := controllerWritesPerPod
	modes := []string{ModeImmediate}
	for _, p := range phases {
		if p.Mode != ModeImmediate && !contains(modes, p.Mode) {
			modes = append(modes, p.Mode)
		}
	}
	for _, m := range modes {
		sfx := " (" + m + ")"
		out = append(out,
			atMost("CloneSet scale-up: controller writes per pod"+sfx, phase(m, ctrlbench.CloneSetInPlace, "scale-up"), writes, 2, ""),
			atMost("CloneSet in-place update: controller writes per pod"+sfx, phase(m, ctrlbench.CloneSetInPlace, "rollout"), writes, 2, ""),
			atMost("CloneSet recreate update: controller writes per pod"+sfx, phase(m, ctrlbench.CloneSetRecreate, "rollout"), writes, 3, ""))
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
	out = append(out, atMost("CloneSet 0→N ready, wall time (immediate)", phase(ModeImmediate, ctrlbench.CloneSetInPlace, "scale-up"), seconds, 70, " s"))
	inPlace, dep := phase(ModeImmediate, ctrlbench.CloneSetInPlace, "rollout"), phase(ModeImmediate, ctrlbench.Deployment, "rollout")
	t := Target{Name: "In-place rollout no slower than Deployment's rolling update, same run (immediate)"}
	if inPlace == nil || dep == nil {
		t.Missing, t.Got, t.Want = true, "no figure", "≤ Deployment"
	} else {
		t.Want = fmt.Sprintf("≤ %.1f s", dep.Seconds)
		t.Got, t.Met = fmt.Sprintf("%.1f s", inPlace.Seconds), inPlace.Seconds <= dep.Seconds
	}
	out = append(out, t)
	out = append(out, atMost("In-place rollout ≤ 0.5× OpenKruise's 214 s (immediate)", inPlace, seconds, 107, " s"))
	return out
}

// judgeDaemonSets: issue 16's targets for the Advanced DaemonSet's in-place rollout —
// one pod write per pod plus a few for the set, and at most half the wall time of kube
// DaemonSet's rolling update (same maxUnavailable) in the same run.
func judgeDaemonSets(phases []ctrlbench.Phase) []Target {
	inPlace := findPhase(phases, ModeImmediate, ctrlbench.DaemonSetInPlace, ctrlbench.PhaseRollout)
	kube := findPhase(phases, ModeImmediate, ctrlbench.KubeDaemonSet, ctrlbench.PhaseRollout)
	out := []Target{atMost("Advanced DaemonSet in-place rollout: controller writes per pod", inPlace, controllerWritesPerPod, 1.1, "")}
	t := Target{Name: "Advanced DaemonSet in-place rollout ≤ 0.5× DaemonSet's rolling update, same run", Want: "≤ 0.5× DaemonSet"}
	if inPlace == nil || kube == nil || kube.Seconds == 0 {
		t.Missing, t.Got = true, "no figure"
	} else {
		ratio := inPlace.Seconds / kube.Seconds
		t.Want = fmt.Sprintf("≤ %.1f s (0.5× %.1f s)", kube.Seconds/2, kube.Seconds)
		t.Got, t.Met = fmt.Sprintf("%.1f s (%.2f×)", inPlace.Seconds, ratio), ratio <= 0.5
	}
	return append(out, t, noConflicts(phases))
}

// noConflicts: issue 37's target — the Advanced DaemonSet's controller never writes
// from a stale copy, so none of its writes is answered 409 Conflict.
func noConflicts(phases []ctrlbench.Phase) Target {
	t := Target{Name: "Advanced DaemonSet: controller writes answered 409 Conflict", Want: "0"}
	n, measured := 0, false
	for _, p := range phases {
		if p.Workload == ctrlbench.KubeDaemonSet || p.ControllerConflicts == nil {
			continue
		}
		measured = true
		for _, v := range p.ControllerConflicts {
			n += v
		}
	}
	if !measured {
		t.Missing, t.Got = true, "no figure"
		return t
	}
	t.Got, t.Met = fmt.Sprintf("%d", n), n == 0
	return t
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
		if r.Round > 1 {
			continue // the CRD is compared with the first round's
		}
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
		ratio("List of all CloneSets, p99, protobuf vs the CRD's JSON", kruise.ListProtobuf.P99ms, crd.ListJSON.P99ms, 0.25, true)
	}
	// Both are watched through kube-apiserver: the aggregator's proxy against its own
	// CRD handler.
	ratio(fmt.Sprintf("Watch delivery p99 through kube-apiserver vs the CRD's (%d watchers)", kruise.Watch.Watchers),
		kruise.Watch.DeliveryP99ms, crd.Watch.DeliveryP99ms, 1.0, true)
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

// judgeWebhookCost: the pod-create ceiling with the Pod webhook registered at least 0.9×
// the one without it (median of the rounds' ratios), and no call failing open.
func judgeWebhookCost(c *ceiling.Result) Target {
	t := Target{Name: "Pod-create ceiling with the Pod webhook vs without it; calls failing open", Want: "≥ 0.9×; 0"}
	if c == nil {
		t.Missing, t.Got = true, "no figure"
		return t
	}
	ratio, failOpen, missing := c.Ratio()
	if missing != "" {
		t.Missing, t.Got = true, "no figure: "+missing
		return t
	}
	t.Got, t.Met = fmt.Sprintf("%.2f×; %.0f", ratio, failOpen), ratio >= 0.9 && failOpen == 0
	return t
}
