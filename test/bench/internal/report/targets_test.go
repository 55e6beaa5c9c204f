package report

import (
	"slices"
	"testing"

	"github.com/kruise-native/kruise-native/test/bench/internal/ceiling"
	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
	"github.com/kruise-native/kruise-native/test/bench/internal/stats"
)

// The DaemonSet targets: writes per pod of the in-place rollout, and its wall time
// against the DaemonSet's in the same run; a missing or timed-out phase gives no figure.
// No Advanced DaemonSet write may conflict (kube's DaemonSet's conflicts are not ours);
// results from before conflicts were counted give no figure.
func TestJudgeDaemonSets(t *testing.T) {
	rollout := func(wl string, secs, writes float64, timedOut bool, conflicts map[string]int) ctrlbench.Phase {
		return ctrlbench.Phase{Mode: ModeImmediate, Workload: wl, Phase: ctrlbench.PhaseRollout,
			Seconds: secs, ControllerWritesPerPod: writes, TimedOut: timedOut, ControllerConflicts: conflicts}
	}
	none, one := map[string]int{}, map[string]int{"update daemonsets/status": 1}
	for _, tc := range []struct {
		name             string
		phases           []ctrlbench.Phase
		writesMet        bool
		timeMet          bool
		timeMissing      bool
		conflictsMet     bool
		conflictsMissing bool
	}{
		{name: "both met", phases: []ctrlbench.Phase{rollout(ctrlbench.KubeDaemonSet, 12, 2.3, false, one), rollout(ctrlbench.DaemonSetInPlace, 6, 1.1, false, none)},
			writesMet: true, timeMet: true, conflictsMet: true},
		{name: "too slow, too many writes, a conflict", phases: []ctrlbench.Phase{rollout(ctrlbench.KubeDaemonSet, 12, 2.3, false, none), rollout(ctrlbench.DaemonSetInPlace, 6.1, 1.11, false, one)}},
		{name: "DaemonSet timed out, conflicts not counted", phases: []ctrlbench.Phase{rollout(ctrlbench.KubeDaemonSet, 12, 2.3, true, nil), rollout(ctrlbench.DaemonSetInPlace, 6, 1, false, nil)},
			writesMet: true, timeMissing: true, conflictsMissing: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := judgeDaemonSets(tc.phases)
			if len(got) != 3 {
				t.Fatalf("got %d targets, want 3: %+v", len(got), got)
			}
			if got[0].Met != tc.writesMet {
				t.Errorf("writes target %+v, want met=%v", got[0], tc.writesMet)
			}
			if got[1].Met != tc.timeMet || got[1].Missing != tc.timeMissing {
				t.Errorf("time target %+v, want met=%v missing=%v", got[1], tc.timeMet, tc.timeMissing)
			}
			if got[2].Met != tc.conflictsMet || got[2].Missing != tc.conflictsMissing {
				t.Errorf("conflicts target %+v, want met=%v missing=%v", got[2], tc.conflictsMet, tc.conflictsMissing)
			}
		})
	}
}

// Only the phases a run was asked for are judged, in Judge's order; results without
// the record ran all.
func TestJudgeOnlyPhasesRun(t *testing.T) {
	daemonSets := []string{
		"Advanced DaemonSet in-place rollout: controller writes per pod",
		"Advanced DaemonSet in-place rollout ≤ 0.5× DaemonSet's rolling update, same run",
		"Advanced DaemonSet: controller writes answered 409 Conflict",
	}
	jobs := "BroadcastJob: controller writes per pod no more than kube Job's, same run"
	for _, tc := range []struct {
		phases string
		want   []string
	}{
		{phases: "daemonsets", want: daemonSets},
		{phases: "jobs, daemonsets", want: append([]string{jobs}, daemonSets...)},
	} {
		var got []string
		for _, tg := range Judge(&Results{Config: Config{Phases: tc.phases}}) {
			got = append(got, tg.Name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("phases %q: targets %q, want %q", tc.phases, got, tc.want)
		}
	}
	if !ran(&Results{}, "api") {
		t.Error("results without recorded phases: api not judged")
	}
}

// The webhook-cost target has no figure, and says why, when a batch had failed creates.
func TestJudgeWebhookCost(t *testing.T) {
	batch := func(round int, webhook bool, perSec float64, errors int) ceiling.Batch {
		return ceiling.Batch{Round: round, Webhook: webhook, Create: stats.Summary{Requests: 100, Errors: errors, PerSec: perSec, FirstError: "boom"}}
	}
	for _, tc := range []struct {
		name    string
		c       *ceiling.Result
		met     bool
		missing bool
		got     string
	}{
		{name: "no ceiling phase", missing: true, got: "no figure"},
		{name: "met", c: &ceiling.Result{Batches: []ceiling.Batch{batch(1, false, 100, 0), batch(1, true, 95, 0)}}, met: true, got: "0.95×; 0"},
		{name: "failed creates", c: &ceiling.Result{Batches: []ceiling.Batch{batch(1, false, 100, 0), batch(1, true, 95, 3)}},
			missing: true, got: "no figure: round 1 with the webhook: 3 of 100 creates failed (boom)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := judgeWebhookCost(tc.c)
			if got.Met != tc.met || got.Missing != tc.missing || got.Got != tc.got {
				t.Errorf("got %+v, want met=%t missing=%t got=%q", got, tc.met, tc.missing, tc.got)
			}
		})
	}
}
