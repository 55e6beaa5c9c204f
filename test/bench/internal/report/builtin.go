package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kruise-native/kruise-native/test/bench/internal/apibench"
	"github.com/kruise-native/kruise-native/test/bench/internal/stats"
)

// Issue 38's targets for CloneSets served by kruise-apiserver (reached through
// kube-apiserver) against the built-in Deployments of the same size.
const (
	builtinLatencyLimit    = 1.2 // get, list and watch delivery p99: at most this × the Deployments'
	builtinThroughputLimit = 0.8 // create throughput: at least this × the Deployments'
)

// BuiltinRatio is one measure of kruise-apiserver's CloneSets against the built-in
// Deployments: the ratio CloneSet/Deployment in each round, and their median (what is
// judged).
type BuiltinRatio struct {
	Measure string `json:"measure"`
	Unit    string `json:"unit"` // of CloneSet and Deployment: "ms" or "per s"
	// HigherIsBetter: throughput (the ratio must reach Limit), not latency.
	HigherIsBetter bool      `json:"higherIsBetter,omitempty"`
	Limit          float64   `json:"limit"`
	Rounds         []float64 `json:"rounds"`
	Median         float64   `json:"median"`
	// CloneSet and Deployment: the medians over the rounds of each side's figure.
	CloneSet   float64 `json:"cloneSet"`
	Deployment float64 `json:"deployment"`
	// Direct: kruise-apiserver reached without kube-apiserver's proxy in front, against
	// the Deployments of round 1 (0 when not measured): what the ratio would be
	// without the aggregation hop.
	Direct float64 `json:"direct,omitempty"`
}

// Met says whether the median ratio meets the limit.
func (b BuiltinRatio) Met() bool {
	if b.HigherIsBetter {
		return b.Median >= b.Limit
	}
	return b.Median <= b.Limit
}

// Want is the target as a string.
func (b BuiltinRatio) Want() string {
	if b.HigherIsBetter {
		return fmt.Sprintf("≥ %g×", b.Limit)
	}
	return fmt.Sprintf("≤ %g×", b.Limit)
}

// BuiltinRatios pairs kruise-apiserver's results with the Deployments' of the same
// round and returns the ratios of every measure both have; creates come from the
// alternating create rounds when there are any, else from each round's batch.
func BuiltinRatios(api []*apibench.Result, creates *apibench.PairedCreates) []BuiltinRatio {
	kruise, deployment := byRound(api, "kruise-apiserver"), byRound(api, apibench.DeploymentTarget)
	var direct *apibench.Result
	if d := byRound(api, "kruise-apiserver-direct"); len(d) > 0 {
		direct = d[0]
	}
	var rounds [][2]*apibench.Result
	for i := range min(len(kruise), len(deployment)) {
		rounds = append(rounds, [2]*apibench.Result{kruise[i], deployment[i]})
	}
	if len(rounds) == 0 {
		return nil
	}
	var out []BuiltinRatio
	measure := func(name, unit string, higher bool, limit float64, get func(*apibench.Result) float64) {
		b := BuiltinRatio{Measure: name, Unit: unit, HigherIsBetter: higher, Limit: limit}
		var cs, dep []float64
		for _, r := range rounds {
			k, d := get(r[0]), get(r[1])
			if k <= 0 || d <= 0 {
				return // not measured on both sides (no protobuf, a failed batch)
			}
			cs, dep = append(cs, k), append(dep, d)
			b.Rounds = append(b.Rounds, k/d)
		}
		b.Median, b.CloneSet, b.Deployment = stats.Median(b.Rounds), stats.Median(cs), stats.Median(dep)
		if direct != nil && get(direct) > 0 {
			b.Direct = get(direct) / get(rounds[0][1])
		}
		out = append(out, b)
	}
	p99 := func(s func(*apibench.Result) *stats.Summary) func(*apibench.Result) float64 {
		return func(r *apibench.Result) float64 {
			if v := s(r); v != nil && v.Errors == 0 {
				return v.P99ms
			}
			return 0
		}
	}
	measure("get p99 (JSON)", "ms", false, builtinLatencyLimit, p99(func(r *apibench.Result) *stats.Summary { return &r.Get }))
	measure("get p99 (protobuf)", "ms", false, builtinLatencyLimit, p99(func(r *apibench.Result) *stats.Summary { return r.GetProtobuf }))
	measure("list of all p99 (JSON)", "ms", false, builtinLatencyLimit, p99(func(r *apibench.Result) *stats.Summary { return &r.ListJSON }))
	measure("list of all p99 (protobuf)", "ms", false, builtinLatencyLimit, p99(func(r *apibench.Result) *stats.Summary { return r.ListProtobuf }))
	measure("watch delivery p99", "ms", false, builtinLatencyLimit, func(r *apibench.Result) float64 {
		if r.Watch.EventsReceived < int64(r.Watch.EventsExpected) {
			return 0 // a watcher missed events: its p99 is not over the same deliveries
		}
		return r.Watch.DeliveryP99ms
	})
	if creates != nil && len(creates.Rounds) > 0 {
		b := BuiltinRatio{Measure: "create throughput (alternating create rounds)", Unit: "per s", HigherIsBetter: true, Limit: builtinThroughputLimit}
		var cs, dep []float64
		for _, p := range creates.Rounds {
			b.Rounds = append(b.Rounds, p.Ratio)
			cs, dep = append(cs, p.Subject.PerSec), append(dep, p.Base.PerSec)
		}
		b.Median, b.CloneSet, b.Deployment = stats.Median(b.Rounds), stats.Median(cs), stats.Median(dep)
		if direct != nil {
			b.Direct = direct.Create.PerSec / rounds[0][1].Create.PerSec
		}
		out = append(out, b)
	} else {
		measure("create throughput", "per s", true, builtinThroughputLimit, func(r *apibench.Result) float64 { return r.Create.PerSec })
	}
	return out
}

// byRound is target's results in round order.
func byRound(api []*apibench.Result, target string) []*apibench.Result {
	var out []*apibench.Result
	for _, r := range api {
		if r.Target == target {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b *apibench.Result) int { return a.Round - b.Round })
	return out
}

// judgeBuiltin: one target per measure of BuiltinRatios.
func judgeBuiltin(api []*apibench.Result, creates *apibench.PairedCreates) []Target {
	ratios := BuiltinRatios(api, creates)
	if len(ratios) == 0 {
		return []Target{{Name: "CloneSets against the built-in Deployments", Want: "both measured", Got: "no figure", Missing: true}}
	}
	var out []Target
	for _, b := range ratios {
		out = append(out, Target{
			Name: fmt.Sprintf("CloneSets (kruise-apiserver) vs built-in Deployments: %s, median of %d rounds", b.Measure, len(b.Rounds)),
			Want: b.Want(),
			Got:  fmt.Sprintf("%.2f× (%.4g vs %.4g %s)", b.Median, b.CloneSet, b.Deployment, b.Unit),
			Met:  b.Met(),
		})
	}
	return out
}

// builtinMarkdown renders the comparison with the Deployments.
func builtinMarkdown(r *Results) string {
	ratios := BuiltinRatios(r.API, r.APIBuiltinCreatePairs)
	if len(ratios) == 0 {
		return ""
	}
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("\n### API: CloneSets against built-in Deployments of the same size\n\n")
	w("%d CloneSets in kruise-apiserver, reached through kube-apiserver (the aggregator's proxy), against %d apps/v1 Deployments in kube-apiserver with the same replicas, selector, pod template and maxUnavailable, both sent with their server's defaults in them; kube-controller-manager and kruise-controller stopped. Ratios are CloneSet / Deployment per round (the rounds alternate which goes first), the median judged; \"no proxy hop\" is kruise-apiserver reached directly against round 1's Deployments (clients never do this: it shows what the aggregation hop costs).\n\n",
		r.Config.Objects, r.Config.Objects)
	w("| measure | CloneSet | Deployment | ratio per round | median | no proxy hop | target | |\n|---|---|---|---|---|---|---|---|\n")
	for _, x := range ratios {
		var rounds []string
		for _, v := range x.Rounds {
			rounds = append(rounds, fmt.Sprintf("%.2f", v))
		}
		direct := "–"
		if x.Direct > 0 {
			direct = fmt.Sprintf("%.2f×", x.Direct)
		}
		verdict := "missed"
		if x.Met() {
			verdict = "met"
		}
		w("| %s | %.4g %s | %.4g %s | %s | **%.2f×** | %s | %s | **%s** |\n", x.Measure, x.CloneSet, x.Unit, x.Deployment, x.Unit,
			strings.Join(rounds, ", "), x.Median, direct, x.Want(), verdict)
	}
	if pr := r.APIBuiltinCreatePairs; pr != nil && len(pr.Rounds) > 0 {
		w("\nCreate rounds (%d objects per server per round, %d clients, deleted after each round):\n\n", r.Config.RoundObjects, r.Config.Clients)
		w("| round | order | Deployments per s | CloneSets per s | ratio | Deployment p50 / p99 ms | CloneSet p50 / p99 ms |\n|---|---|---|---|---|---|---|\n")
		for i, p := range pr.Rounds {
			order := "Deployments first"
			if p.SubjectFirst {
				order = "CloneSets first"
			}
			w("| %d | %s | %.1f | %.1f | %.2f | %.0f / %.0f | %.0f / %.0f |\n", i+1, order, p.Base.PerSec, p.Subject.PerSec,
				p.Ratio, p.Base.P50ms, p.Base.P99ms, p.Subject.P50ms, p.Subject.P99ms)
		}
	}
	return b.String()
}
