package report

import (
	"math"
	"testing"

	"github.com/kruise-native/kruise-native/test/bench/internal/apibench"
	"github.com/kruise-native/kruise-native/test/bench/internal/stats"
)

func apiResult(target string, round int, getP99, listP99, watchP99, perSec float64, protobuf bool) *apibench.Result {
	r := &apibench.Result{Target: target, Round: round,
		Get: stats.Summary{P99ms: getP99}, ListJSON: stats.Summary{P99ms: listP99}, Create: stats.Summary{PerSec: perSec},
		Watch: apibench.WatchResult{DeliveryP99ms: watchP99, EventsExpected: 10, EventsReceived: 10}}
	if protobuf {
		r.GetProtobuf, r.ListProtobuf = &stats.Summary{P99ms: getP99}, &stats.Summary{P99ms: listP99}
	}
	return r
}

func byMeasure(t *testing.T, ratios []BuiltinRatio, measure string) BuiltinRatio {
	t.Helper()
	for _, b := range ratios {
		if b.Measure == measure {
			return b
		}
	}
	t.Fatalf("no %q among %+v", measure, ratios)
	return BuiltinRatio{}
}

// Ratios pair kruise-apiserver with the Deployments of the same round (whatever the
// order of the results), are judged on the median, and leave out a measure one side
// lacks; the direct server's ratio is against round 1's Deployments.
func TestBuiltinRatios(t *testing.T) {
	dep := apibench.DeploymentTarget
	api := []*apibench.Result{
		apiResult("crd", 1, 500, 500, 500, 1, false),
		apiResult("kruise-apiserver", 1, 120, 100, 130, 400, true),
		apiResult("kruise-apiserver-direct", 1, 50, 80, 90, 600, true),
		apiResult(dep, 1, 100, 100, 100, 500, true),
		apiResult(dep, 2, 100, 50, 100, 500, true),
		apiResult("kruise-apiserver", 2, 200, 100, 110, 400, true),
		apiResult("kruise-apiserver", 3, 110, 100, 300, 400, true),
		apiResult(dep, 3, 100, 100, 100, 500, true),
	}
	got := BuiltinRatios(api, nil)
	get := byMeasure(t, got, "get p99 (JSON)")
	if want := []float64{1.2, 2, 1.1}; !near(get.Rounds, want) {
		t.Errorf("get rounds = %v, want %v", get.Rounds, want)
	}
	if math.Abs(get.Median-1.2) > 1e-9 || !get.Met() {
		t.Errorf("get median = %v met %v, want 1.2 met (the limit is inclusive)", get.Median, get.Met())
	}
	if math.Abs(get.Direct-0.5) > 1e-9 {
		t.Errorf("get direct = %v, want 0.5", get.Direct)
	}
	if get.CloneSet != 120 || get.Deployment != 100 {
		t.Errorf("get medians = %v vs %v, want 120 vs 100", get.CloneSet, get.Deployment)
	}
	list := byMeasure(t, got, "list of all p99 (JSON)")
	if list.Median != 1 || !list.Met() {
		t.Errorf("list median = %v (rounds %v), want 1 met", list.Median, list.Rounds)
	}
	watch := byMeasure(t, got, "watch delivery p99")
	if math.Abs(watch.Median-1.3) > 1e-9 || watch.Met() {
		t.Errorf("watch median = %v met %v, want 1.3 missed", watch.Median, watch.Met())
	}
	create := byMeasure(t, got, "create throughput")
	if !create.HigherIsBetter || math.Abs(create.Median-0.8) > 1e-9 || !create.Met() {
		t.Errorf("create = %+v, want 0.8 met (higher is better, inclusive)", create)
	}

	// A round whose Deployments lack protobuf (or a failed batch) drops the measure.
	api[3].ListProtobuf = nil
	for _, b := range BuiltinRatios(api, nil) {
		if b.Measure == "list of all p99 (protobuf)" {
			t.Errorf("protobuf list judged without the Deployments' figure: %+v", b)
		}
	}
	// A watcher that missed events has no comparable p99.
	api[3].Watch.EventsReceived = 9
	for _, b := range BuiltinRatios(api, nil) {
		if b.Measure == "watch delivery p99" {
			t.Errorf("watch judged with missed events: %+v", b)
		}
	}
}

// With alternating create rounds, create throughput is judged on their ratios' median.
func TestBuiltinRatiosCreateRounds(t *testing.T) {
	api := []*apibench.Result{apiResult("kruise-apiserver", 1, 1, 1, 1, 100, false), apiResult(apibench.DeploymentTarget, 1, 1, 1, 1, 1000, false)}
	pairs := &apibench.PairedCreates{Rounds: []apibench.Pair{
		{Base: stats.Summary{PerSec: 100}, Subject: stats.Summary{PerSec: 70}, Ratio: 0.7},
		{Base: stats.Summary{PerSec: 100}, Subject: stats.Summary{PerSec: 90}, Ratio: 0.9},
		{Base: stats.Summary{PerSec: 100}, Subject: stats.Summary{PerSec: 95}, Ratio: 0.95},
	}}
	c := byMeasure(t, BuiltinRatios(api, pairs), "create throughput (alternating create rounds)")
	if c.Median != 0.9 || !c.Met() || c.CloneSet != 90 || c.Deployment != 100 {
		t.Errorf("create = %+v, want median 0.9 met, 90 vs 100 per s", c)
	}
	targets := judgeBuiltin(api, pairs)
	if len(targets) != 4 { // get, list, watch (JSON only here) and create
		t.Errorf("got %d targets, want 4: %+v", len(targets), targets)
	}
	if missing := judgeBuiltin(api[:1], nil); len(missing) != 1 || !missing[0].Missing {
		t.Errorf("without the Deployments: %+v, want one target with no figure", missing)
	}
}

func near(got, want []float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			return false
		}
	}
	return true
}
