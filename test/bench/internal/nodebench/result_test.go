package nodebench

import (
	"strings"
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	for _, tc := range []struct {
		name     string
		perPod   []time.Duration
		p50, p99 float64
	}{
		{"none", nil, 0, 0},
		{"one", []time.Duration{1500 * time.Millisecond}, 1.5, 1.5},
		// Nearest rank: p50 of 4 is the 2nd, p99 the 4th; the input's order does not matter.
		{"four unsorted", []time.Duration{4 * time.Second, time.Second, 3 * time.Second, 2 * time.Second}, 2, 4},
		// 50 pods, i+1 seconds each: p50 the 25th, p99 the 50th (ceil(49.5)).
		{"fifty", seq(50), 25, 50},
		// 200 pods: p99 is the 198th.
		{"two hundred", seq(200), 100, 198},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r Rollout
			r.Summarize(tc.perPod)
			if r.P50Seconds != tc.p50 || r.P99Seconds != tc.p99 {
				t.Errorf("p50 %v p99 %v, want %v %v", r.P50Seconds, r.P99Seconds, tc.p50, tc.p99)
			}
			if len(r.PerPodSeconds) != len(tc.perPod) {
				t.Fatalf("%d per-pod times, want %d", len(r.PerPodSeconds), len(tc.perPod))
			}
			for i := 1; i < len(r.PerPodSeconds); i++ {
				if r.PerPodSeconds[i] < r.PerPodSeconds[i-1] {
					t.Fatalf("not sorted: %v", r.PerPodSeconds)
				}
			}
		})
	}
}

func seq(n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[n-1-i] = time.Duration(i+1) * time.Second
	}
	return out
}

func TestSetWrites(t *testing.T) {
	r := Rollout{Pods: 50}
	r.SetWrites(51, 152)
	if r.ControllerWritesPerPod != 1.02 || r.AllWritesPerPod != 3.04 {
		t.Errorf("per pod %v / %v", r.ControllerWritesPerPod, r.AllWritesPerPod)
	}
	var none Rollout
	none.SetWrites(3, 4) // no pods: no division by zero
	if none.ControllerWritesPerPod != 0 {
		t.Errorf("per pod %v with no pods", none.ControllerWritesPerPod)
	}
}

func rollout(workload string, pre bool, p99 float64) Rollout {
	return Rollout{Workload: workload, PreDownload: pre, P99Seconds: p99, PerPodSeconds: []float64{p99}}
}

func TestVerdicts(t *testing.T) {
	failed := rollout(CloneSetInPlace, true, 1)
	failed.Error = "timed out"
	for _, tc := range []struct {
		name     string
		rollouts []Rollout
		want     [2]string
	}{
		{"both met", []Rollout{rollout(CloneSetInPlace, false, 4), rollout(Deployment, false, 10), rollout(CloneSetInPlace, true, 3)},
			[2]string{Met, Met}},
		{"exactly half is met; pre-download equal is missed", []Rollout{rollout(CloneSetInPlace, false, 5), rollout(Deployment, false, 10), rollout(CloneSetInPlace, true, 5)},
			[2]string{Met, Missed}},
		{"slower than half", []Rollout{rollout(CloneSetInPlace, false, 6), rollout(Deployment, false, 10), rollout(CloneSetInPlace, true, 7)},
			[2]string{Missed, Missed}},
		// The recreating CloneSet is not the Deployment: it does not stand in for it.
		{"no Deployment", []Rollout{rollout(CloneSetInPlace, false, 4), rollout(CloneSetRecreate, false, 10)},
			[2]string{NotMeasured, NotMeasured}},
		{"pre-download rollout failed", []Rollout{rollout(CloneSetInPlace, false, 4), rollout(Deployment, false, 10), failed},
			[2]string{Met, NotMeasured}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Verdicts(&Results{Rollouts: tc.rollouts})
			if len(got) != 2 || got[0].Verdict != tc.want[0] || got[1].Verdict != tc.want[1] {
				t.Errorf("verdicts %+v, want %v", got, tc.want)
			}
		})
	}
}

func TestResolveMaxUnavailable(t *testing.T) {
	for _, tc := range []struct {
		in   string
		pods int
		want int
	}{
		{"25%", 50, 12}, // a Deployment's rounding (down); a CloneSet would take 13
		{"25%", 10, 2},
		{"25%", 3, 1}, // never 0: nothing would roll
		{"5", 50, 5},
		{"100%", 50, 50},
	} {
		got, err := ResolveMaxUnavailable(tc.in, tc.pods)
		if err != nil || got != tc.want {
			t.Errorf("%s of %d: %d, %v; want %d", tc.in, tc.pods, got, err, tc.want)
		}
	}
	if _, err := ResolveMaxUnavailable("x%", 10); err == nil {
		t.Errorf("a malformed percentage resolved")
	}
}

func TestRoundOrder(t *testing.T) {
	runs := []string{"a", "b", "c", "d"}
	for round, want := range map[int]string{1: "abcd", 2: "bcda", 3: "cdab", 5: "abcd"} {
		if got := strings.Join(RoundOrder(runs, round), ""); got != want {
			t.Errorf("round %d: %s, want %s", round, got, want)
		}
	}
	if RoundOrder([]string{}, 1) != nil {
		t.Errorf("no runs: not nil")
	}
}

func inRound(r Rollout, round int) Rollout { r.Round = round; return r }

// TestVerdictsRounds: the targets are judged on the median of per-round ratios, not on
// one round: a round that alone would flip a verdict does not.
func TestVerdictsRounds(t *testing.T) {
	var rollouts []Rollout
	for i, p := range []struct{ inPlace, deploy, pre float64 }{
		{4, 10, 5},   // 0.40, 1.25
		{6, 10, 5.4}, // 0.60, 0.90
		{3, 10, 2.7}, // 0.30, 0.90
	} {
		rollouts = append(rollouts, inRound(rollout(CloneSetInPlace, false, p.inPlace), i+1),
			inRound(rollout(Deployment, false, p.deploy), i+1), inRound(rollout(CloneSetInPlace, true, p.pre), i+1))
	}
	got := Verdicts(&Results{Rollouts: rollouts})
	if got[0].Verdict != Met || !strings.HasPrefix(got[0].Got, "0.40×") {
		t.Errorf("in-place: %+v, want met at 0.40×", got[0])
	}
	if got[1].Verdict != Met || !strings.HasPrefix(got[1].Got, "0.90×") {
		t.Errorf("pre-download: %+v, want met at 0.90×", got[1])
	}
	// A round whose Deployment did not finish gives no in-place ratio.
	rollouts[4].Error = "timed out"
	got = Verdicts(&Results{Rollouts: rollouts})
	if got[0].Got != "0.35× (rounds: 0.40, 0.30)" {
		t.Errorf("in-place without round 2: %q", got[0].Got)
	}
}

func TestSummarizeRounds(t *testing.T) {
	a := Rollout{Workload: CloneSetInPlace, Pods: 2, Round: 1, WallSeconds: 3, P50Seconds: 1, P99Seconds: 3, UIDsKept: 2, IPsKept: 2,
		PerPodSeconds: []float64{1, 3}, CPUSeconds: map[string]float64{"kubelet": 1}}
	b := Rollout{Workload: CloneSetInPlace, Pods: 2, Round: 2, WallSeconds: 5, P50Seconds: 2, P99Seconds: 5, UIDsKept: 1, IPsKept: 2,
		PerPodSeconds: []float64{2, 5}, CPUSeconds: map[string]float64{"kubelet": 2}}
	c := Rollout{Workload: CloneSetInPlace, Pods: 2, Round: 3, WallSeconds: 4, P50Seconds: 4, P99Seconds: 4, UIDsKept: 2, IPsKept: 2,
		PerPodSeconds: []float64{4, 4}, CPUSeconds: map[string]float64{"kubelet": 4}}
	failed := Rollout{Workload: Deployment, Pods: 2, Round: 1, Error: "timed out"}
	got := Summarize(&Results{Rollouts: []Rollout{a, failed, b, c}})
	if len(got) != 2 || got[0].Workload != CloneSetInPlace || got[1].Workload != Deployment {
		t.Fatalf("summary %+v", got)
	}
	s := got[0]
	if s.WallSeconds != 4 || s.P50Seconds != 2 || s.P99Seconds != 4 || s.CPUSeconds["kubelet"] != 2 || s.UIDsKept != 1 || s.IPsKept != 2 {
		t.Errorf("in-place summary %+v", s)
	}
	if len(s.PerPodSeconds) != 6 || s.PerPodSeconds[0] != 1 || s.PerPodSeconds[5] != 5 {
		t.Errorf("pooled per-pod times %v", s.PerPodSeconds)
	}
	if got[1].Error == "" {
		t.Errorf("a workload with no finished round has no error: %+v", got[1])
	}
}

func TestWorkloadNamed(t *testing.T) {
	for wl, short := range ShortNames {
		if got, ok := WorkloadNamed(short); !ok || got != wl {
			t.Errorf("WorkloadNamed(%q) = %q, %v; want %q", short, got, ok, wl)
		}
	}
	if _, ok := WorkloadNamed("statefulset"); ok {
		t.Errorf("an unknown short name resolved")
	}
}
