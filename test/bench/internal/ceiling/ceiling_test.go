package ceiling

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/bench/internal/stats"
	"github.com/kruise-native/kruise-native/test/bench/internal/webhookmetrics"
)

func TestRatio(t *testing.T) {
	b := func(round int, webhook bool, perSec, failOpen float64) Batch {
		return Batch{Round: round, Webhook: webhook, Create: stats.Summary{PerSec: perSec}, Calls: webhookmetrics.Delta{FailOpen: failOpen}}
	}
	for _, tc := range []struct {
		name     string
		batches  []Batch
		ratio    float64
		failOpen float64
		ok       bool
	}{
		{name: "no batches"},
		{name: "only with the webhook", batches: []Batch{b(1, true, 100, 3)}, failOpen: 3},
		{name: "one round", batches: []Batch{b(1, false, 200, 0), b(1, true, 180, 0)}, ratio: 0.9, ok: true},
		{name: "median of three rounds, fail-opens summed",
			batches: []Batch{b(1, false, 100, 0), b(1, true, 50, 2), b(2, true, 90, 1), b(2, false, 100, 0), b(3, false, 100, 0), b(3, true, 120, 0)},
			ratio:   0.9, failOpen: 3, ok: true},
		{name: "median of two rounds is their mean", batches: []Batch{b(1, false, 100, 0), b(1, true, 80, 0), b(2, true, 100, 0), b(2, false, 100, 0)}, ratio: 0.9, ok: true},
		{name: "a round without its pair is left out", batches: []Batch{b(1, false, 100, 0), b(1, true, 95, 0), b(2, true, 10, 0)}, ratio: 0.95, ok: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Result{Batches: tc.batches}
			ratio, failOpen, ok := r.Ratio()
			if ok != tc.ok || failOpen != tc.failOpen || (ok && (ratio < tc.ratio-1e-9 || ratio > tc.ratio+1e-9)) {
				t.Errorf("Ratio() = %g, %g, %t; want %g, %g, %t", ratio, failOpen, ok, tc.ratio, tc.failOpen, tc.ok)
			}
		})
	}
}
