package report

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
	"github.com/kruise-native/kruise-native/test/bench/internal/proc"
)

func TestFitLine(t *testing.T) {
	for _, tc := range []struct {
		name                string
		x, y                []float64
		slope, intercept, r float64
		err                 bool
	}{
		{name: "exact", x: []float64{1000, 2000, 4000}, y: []float64{60, 70, 90}, slope: 0.01, intercept: 50, r: 1},
		// y = 2x + 1 with residuals +1, -2, +1: the line is the same, R² below 1.
		{name: "noisy", x: []float64{0, 1, 2}, y: []float64{2, 1, 6}, slope: 2, intercept: 1, r: 1 - 6.0/14},
		{name: "flat", x: []float64{1, 2, 3}, y: []float64{5, 5, 5}, slope: 0, intercept: 5, r: 1},
		{name: "falling", x: []float64{1, 2}, y: []float64{4, 2}, slope: -2, intercept: 6, r: 1},
		{name: "one point", x: []float64{1}, y: []float64{1}, err: true},
		{name: "one x", x: []float64{3, 3}, y: []float64{1, 2}, err: true},
		{name: "lengths differ", x: []float64{1, 2}, y: []float64{1}, err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := FitLine(tc.x, tc.y)
			if tc.err {
				if err == nil {
					t.Fatalf("FitLine = %+v, want an error", l)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(l.Slope-tc.slope) > 1e-9 || math.Abs(l.Intercept-tc.intercept) > 1e-9 || math.Abs(l.R2-tc.r) > 1e-9 {
				t.Errorf("FitLine = %+v, want slope %v intercept %v R² %v", l, tc.slope, tc.intercept, tc.r)
			}
			if l.Points != len(tc.x) {
				t.Errorf("points = %d, want %d", l.Points, len(tc.x))
			}
		})
	}
	// The extrapolation is the line read off far beyond the sizes.
	l, _ := FitLine([]float64{1000, 2000, 4000}, []float64{60, 70, 90})
	if got := l.At(GrowthExtrapolatePods); math.Abs(got-1050) > 1e-9 {
		t.Errorf("At(100000) = %v, want 1050", got)
	}
}

// growthSize is one size of the growth phase: each controller's peak RSS and CPU
// seconds as base + per-pod cost × pods, and what the servers add.
func growthSize(workloads int, kcmBase, kcmPerPod, kruiseBase, kruisePerPod float64) *ScaleResults {
	pods := float64(workloads * 10)
	side := func(kind string, base, perPod float64) *ctrlbench.ScaleSide {
		ctl := ctrlbench.ScaleController(kind)
		v := base + perPod*pods
		return &ctrlbench.ScaleSide{Workload: kind, Controller: ctl, Workloads: workloads, PodsEach: 10,
			Ready: ctrlbench.ScaleStep{Processes: map[string]proc.Usage{ctl: {CPUSeconds: v / 10, PeakRSSMiB: v},
				"kube-apiserver": {CPUSeconds: pods / 100}}},
			ServersBefore: map[string]proc.Steady{"kube-apiserver": {RSSMiB: 500}},
			ServersIdle:   map[string]proc.Steady{"kube-apiserver": {RSSMiB: 500 + pods/50}},
		}
	}
	return &ScaleResults{Workloads: workloads, PodsEach: 10,
		Sides: []*ctrlbench.ScaleSide{side(ctrlbench.ScaleDeployment, kcmBase, kcmPerPod), side(ctrlbench.ScaleCloneSet, kruiseBase, kruisePerPod)},
		CRD: &CRDMemory{ServerMemory: ServerMemory{
			Before:      map[string]proc.Steady{"kube-apiserver": {RSSMiB: 300}},
			WithObjects: map[string]proc.Steady{"kube-apiserver": {RSSMiB: 300 + float64(workloads)/10}},
		}},
		Kruise: &ServerMemory{
			Before:      map[string]proc.Steady{"kruise-apiserver": {RSSMiB: 100}},
			WithObjects: map[string]proc.Steady{"kruise-apiserver": {RSSMiB: 100 + float64(workloads)/40}},
		},
	}
}

// The comparisons' lines come out of the sizes' figures; the RSS slope target is met
// at a ratio of 0.5 and missed above it, whatever the intercepts (kruise-controller
// starting smaller or larger); one size or a flat Deployment line gives no figure.
func TestGrowthComparisonsAndTarget(t *testing.T) {
	g := &GrowthResults{PodsEach: 10, Sizes: []*ScaleResults{
		growthSize(100, 150, 0.02, 40, 0.01), growthSize(200, 150, 0.02, 40, 0.01), growthSize(400, 150, 0.02, 40, 0.01),
	}}
	comps := GrowthComparisons(g)
	if len(comps) != 5 {
		t.Fatalf("got %d comparisons, want 5", len(comps))
	}
	rss := comps[0]
	if rss.CloneSet.Name != "kruise-controller" || rss.Deployment.Name != "kube-controller-manager" || len(rss.CloneSet.Points) != 3 {
		t.Fatalf("RSS comparison = %+v", rss)
	}
	if math.Abs(rss.CloneSet.Line.Slope-0.01) > 1e-9 || math.Abs(rss.Deployment.Line.Slope-0.02) > 1e-9 || math.Abs(ratio(rss)-0.5) > 1e-9 {
		t.Errorf("RSS slopes %v / %v, ratio %v; want 0.01 / 0.02, 0.5", rss.CloneSet.Line.Slope, rss.Deployment.Line.Slope, ratio(rss))
	}
	if got := rss.Deployment.Line.At(GrowthExtrapolatePods); math.Abs(got-2150) > 1e-6 {
		t.Errorf("kube-controller-manager at 100 000 pods = %v MiB, want 2150", got)
	}
	if cpu := comps[1]; math.Abs(ratio(cpu)-0.5) > 1e-9 || cpu.Limit != 0 {
		t.Errorf("CPU comparison = %+v, want ratio 0.5 and no target", cpu)
	}
	// kruise-apiserver adds 1/40 MiB per workload (per 10 pods), the CRD 1/10.
	if api := comps[2]; math.Abs(api.CloneSet.Line.Slope-1.0/400) > 1e-12 || math.Abs(ratio(api)-0.25) > 1e-9 {
		t.Errorf("API server adds = %+v, want slope 1/400 MiB per pod, ratio 0.25", api)
	}
	if servers := comps[3]; math.Abs(servers.CloneSet.Line.Slope-0.02) > 1e-9 || len(servers.Deployment.Points) != 3 {
		t.Errorf("servers after idle = %+v", servers)
	}
	if cpu := comps[4]; math.Abs(cpu.CloneSet.Line.Slope-0.01) > 1e-9 {
		t.Errorf("servers' CPU = %+v", cpu)
	}
	verdict := func(g *GrowthResults) Target {
		t.Helper()
		ts := judgeGrowth(g)
		if len(ts) != 1 {
			t.Fatalf("got %d targets, want 1: %+v", len(ts), ts)
		}
		return ts[0]
	}
	if tg := verdict(g); !tg.Met || tg.Missing || !strings.Contains(tg.Got, "0.50×") {
		t.Errorf("at 0.5×: %+v, want met", tg)
	}
	higher := &GrowthResults{PodsEach: 10, Sizes: []*ScaleResults{growthSize(100, 150, 0.02, 10, 0.011), growthSize(400, 150, 0.02, 10, 0.011)}}
	if tg := verdict(higher); tg.Met || tg.Missing {
		t.Errorf("at 0.55×: %+v, want missed", tg)
	}
	if tg := verdict(&GrowthResults{Sizes: g.Sizes[:1]}); !tg.Missing {
		t.Errorf("one size: %+v, want no figure", tg)
	}
	if tg := verdict(&GrowthResults{Sizes: []*ScaleResults{growthSize(100, 150, 0, 40, 0.01), growthSize(200, 150, 0, 40, 0.01)}}); !tg.Missing {
		t.Errorf("flat kube-controller-manager: %+v, want no figure", tg)
	}

	// A CloneSet slope of 0 is a figure (0×, met) for the verdict and the table alike.
	zero := &GrowthResults{PodsEach: 10, Sizes: []*ScaleResults{growthSize(100, 150, 0.02, 40, 0), growthSize(200, 150, 0.02, 40, 0)}}
	if tg := verdict(zero); !tg.Met || tg.Missing || !strings.Contains(tg.Got, "0.00×") {
		t.Errorf("flat kruise-controller: %+v, want 0.00× met", tg)
	}
	if md := growthMarkdown(&Results{Date: "test", Config: Config{Phases: "growth"}, Growth: zero}, ".", true); !strings.Contains(md, "| 0.00× | ≤ 0.5×: **met** |") {
		t.Errorf("flat kruise-controller: the table disagrees with the verdict:\n%s", md)
	}

	// The report renders the table and draws the chart.
	r := &Results{Date: "test", Config: Config{Phases: "growth"}, Growth: g}
	md := growthMarkdown(r, ".", true)
	for _, want := range []string{"| controller peak RSS | kruise-controller | 10.24 KiB | 40.0 MiB | 1.00 | 1040 MiB | 0.50× |", "at 100000 pods", "![growth](./test.png)"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	// A cost that does not grow is not extrapolated.
	flat := growthMarkdown(&Results{Date: "test", Config: Config{Phases: "growth"}, Growth: &GrowthResults{PodsEach: 10,
		Sizes: []*ScaleResults{growthSize(100, 150, 0, 40, -0.001), growthSize(200, 150, 0, 40, -0.001)}}}, ".", true)
	if !strings.Contains(flat, "| controller peak RSS | kruise-controller | -1.02 KiB | 40.0 MiB | 1.00 | – (no growth measured: within the noise) |") {
		t.Errorf("a falling line was extrapolated:\n%s", flat)
	}
	// Nor does it give a ratio (a negative one read "-0.39×" in a real run), or a verdict.
	falling := &GrowthResults{PodsEach: 10, Sizes: []*ScaleResults{growthSize(100, 150, 0.02, 40, -0.001), growthSize(200, 150, 0.02, 40, -0.001)}}
	if r, ok := GrowthComparisons(falling)[0].SlopeRatio(); ok {
		t.Errorf("falling kruise-controller line: ratio %v, want none", r)
	}
	if tg := verdict(falling); !tg.Missing {
		t.Errorf("falling kruise-controller line: %+v, want no figure", tg)
	}
	if md := growthMarkdown(&Results{Date: "test", Config: Config{Phases: "growth"}, Growth: falling}, ".", true); !strings.Contains(md, "within the noise) | – | ≤ 0.5×: **no figure** |") {
		t.Errorf("falling kruise-controller line: the table gives a ratio:\n%s", md)
	}
	dir := t.TempDir()
	files, err := Charts(r, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0] != filepath.Join(dir, "test.png") {
		t.Fatalf("charts = %v", files)
	}
	if st, err := os.Stat(files[0]); err != nil || st.Size() == 0 {
		t.Errorf("chart %s: %v", files[0], err)
	}
}

// ratio is c's slope ratio, NaN when it has none.
func ratio(c GrowthComparison) float64 {
	if r, ok := c.SlopeRatio(); ok {
		return r
	}
	return math.NaN()
}
