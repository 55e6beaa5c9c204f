package ceiling

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/test/bench/internal/stats"
	"github.com/kruise-native/kruise-native/test/bench/internal/webhookmetrics"
)

func TestRatio(t *testing.T) {
	b := func(round int, webhook bool, perSec, failOpen float64) Batch {
		return Batch{Round: round, Webhook: webhook, Create: stats.Summary{Requests: 100, PerSec: perSec}, Calls: webhookmetrics.Delta{FailOpen: failOpen}}
	}
	failed := func(bt Batch, errors int) Batch {
		bt.Create.Errors, bt.Create.FirstError = errors, "context deadline exceeded"
		return bt
	}
	for _, tc := range []struct {
		name     string
		batches  []Batch
		ratio    float64
		failOpen float64
		// missing: a fragment of the reason there is no ratio; empty when there is one.
		missing string
	}{
		{name: "no batches", missing: "no round"},
		{name: "only with the webhook", batches: []Batch{b(1, true, 100, 3)}, failOpen: 3, missing: "no round"},
		{name: "one round", batches: []Batch{b(1, false, 200, 0), b(1, true, 180, 0)}, ratio: 0.9},
		{name: "median of three rounds, fail-opens summed",
			batches: []Batch{b(1, false, 100, 0), b(1, true, 50, 2), b(2, true, 90, 1), b(2, false, 100, 0), b(3, false, 100, 0), b(3, true, 120, 0)},
			ratio:   0.9, failOpen: 3},
		{name: "median of two rounds is their mean", batches: []Batch{b(1, false, 100, 0), b(1, true, 80, 0), b(2, true, 100, 0), b(2, false, 100, 0)}, ratio: 0.9},
		{name: "a round without its pair is left out", batches: []Batch{b(1, false, 100, 0), b(1, true, 95, 0), b(2, true, 10, 0)}, ratio: 0.95},
		{name: "failed creates with the webhook: no ratio",
			batches: []Batch{b(1, false, 100, 0), failed(b(1, true, 95, 0), 7), b(2, true, 90, 0), b(2, false, 100, 0)},
			missing: "round 1 with the webhook: 7 of 100 creates failed (context deadline exceeded)"},
		{name: "failed creates without the webhook: no ratio",
			batches: []Batch{b(1, false, 100, 0), b(1, true, 95, 0), b(2, true, 90, 0), failed(b(2, false, 100, 0), 1)},
			missing: "round 2 without the webhook: 1 of 100"},
		{name: "fail-opens still summed without a ratio",
			batches: []Batch{failed(b(1, false, 100, 0), 2), b(1, true, 95, 4)}, failOpen: 4, missing: "round 1 without the webhook"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Result{Batches: tc.batches}
			ratio, failOpen, missing := r.Ratio()
			if failOpen != tc.failOpen {
				t.Errorf("fail-opens %g, want %g", failOpen, tc.failOpen)
			}
			switch {
			case tc.missing == "" && missing != "":
				t.Errorf("no ratio (%s), want %g", missing, tc.ratio)
			case tc.missing == "" && (ratio < tc.ratio-1e-9 || ratio > tc.ratio+1e-9):
				t.Errorf("ratio %g, want %g", ratio, tc.ratio)
			case tc.missing != "" && !strings.Contains(missing, tc.missing):
				t.Errorf("ratio %g, missing %q; want no ratio because %q", ratio, missing, tc.missing)
			}
		})
	}
}

// A batch is done once as many pods are Ready as were created, not as were asked for.
func TestAllReady(t *testing.T) {
	pod := func(ready corev1.ConditionStatus) corev1.Pod {
		return corev1.Pod{Status: corev1.PodStatus{Conditions: []corev1.PodCondition{
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue}, {Type: corev1.PodReady, Status: ready}}}}
	}
	yes, no := pod(corev1.ConditionTrue), pod(corev1.ConditionFalse)
	for _, tc := range []struct {
		name    string
		pods    []corev1.Pod
		created int
		want    bool
	}{
		{name: "all created and ready", pods: []corev1.Pod{yes, yes, yes}, created: 3, want: true},
		{name: "one of the created not ready", pods: []corev1.Pod{yes, no, yes}, created: 3},
		{name: "two of three asked for created, both ready", pods: []corev1.Pod{yes, yes}, created: 2, want: true},
		{name: "a create the client saw fail was stored anyway", pods: []corev1.Pod{yes, yes, yes}, created: 2, want: true},
		{name: "not listed yet", pods: []corev1.Pod{yes}, created: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := allReady(tc.pods, tc.created); got != tc.want {
				t.Errorf("allReady(%d created) = %t, want %t", tc.created, got, tc.want)
			}
		})
	}
}
