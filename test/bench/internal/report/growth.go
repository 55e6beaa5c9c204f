package report

import (
	"fmt"
	"strings"

	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
)

// GrowthExtrapolatePods is where the growth lines are read off: 100 000 pods.
const GrowthExtrapolatePods = 100000

// growthRSSSlopeLimit: kruise-controller's per-pod peak RSS slope at most this × kube-
// controller-manager's (issue 38).
const growthRSSSlopeLimit = 0.5

// GrowthResults are the growth phase's: the scale phase at several sizes.
type GrowthResults struct {
	PodsEach int             `json:"podsEach"`
	Sizes    []*ScaleResults `json:"sizes"`
}

// GrowthPoint is one size's figure.
type GrowthPoint struct {
	Pods  float64 `json:"pods"`
	Value float64 `json:"value"`
}

// GrowthSeries is one cost measured at every size, and its line against pods.
type GrowthSeries struct {
	Name   string        `json:"name"`
	Points []GrowthPoint `json:"points"`
	Line   *Line         `json:"line,omitempty"` // nil with fewer than two sizes measured
}

// GrowthComparison is a cost of the CloneSets' side against the same cost of the
// Deployments' side, as lines against pods.
type GrowthComparison struct {
	Measure string `json:"measure"`
	Unit    string `json:"unit"` // of the values: "MiB" or "CPU s"
	// CloneSet and Deployment sides' series.
	CloneSet   GrowthSeries `json:"cloneSet"`
	Deployment GrowthSeries `json:"deployment"`
	// Limit on SlopeRatio (0: no target, shown for information).
	Limit float64 `json:"limit,omitempty"`
}

// SlopeRatio is the CloneSet side's slope over the Deployment side's; ok is false
// without both lines, with a Deployment slope that is not positive, or with a falling
// CloneSet line: a cost does not shrink with more pods, so such a line is the reading's
// noise (its row says so), and a negative ratio would be no figure. A CloneSet slope
// of 0 is a figure: 0×.
func (c GrowthComparison) SlopeRatio() (r float64, ok bool) {
	if c.CloneSet.Line == nil || c.Deployment.Line == nil || c.Deployment.Line.Slope <= 0 || c.CloneSet.Line.Slope < 0 {
		return 0, false
	}
	return c.CloneSet.Line.Slope / c.Deployment.Line.Slope, true
}

// Met: there is a slope ratio and it is within Limit.
func (c GrowthComparison) Met() bool {
	r, ok := c.SlopeRatio()
	return ok && r <= c.Limit
}

// GrowthComparisons derives the growth lines from the sizes: the controllers' peak
// RSS and CPU seconds (over the steps both sides have, as the scale targets count
// them), what each API server adds to hold the workloads alone, and what the API
// servers together add and spend for each side's workloads and pods.
func GrowthComparisons(g *GrowthResults) []GrowthComparison {
	if g == nil {
		return nil
	}
	out := []GrowthComparison{
		{Measure: "controller peak RSS", Unit: "MiB", Limit: growthRSSSlopeLimit},
		{Measure: "controller CPU seconds", Unit: "CPU s"},
		{Measure: "RSS an API server adds to hold the workloads (no pods, no controller): kruise-apiserver with its embedded etcd vs kube-apiserver serving them as a CRD", Unit: "MiB"},
		{Measure: "RSS the API servers and etcd add holding the side's workloads and pods (after the idle window)", Unit: "MiB"},
		{Measure: "API servers' and etcd's CPU seconds while the side became ready", Unit: "CPU s"},
	}
	for i := range out {
		out[i].CloneSet.Name = ctrlbench.ScaleCloneSet
		out[i].Deployment.Name = ctrlbench.ScaleDeployment
	}
	out[0].CloneSet.Name, out[0].Deployment.Name = "kruise-controller", "kube-controller-manager"
	out[1].CloneSet.Name, out[1].Deployment.Name = "kruise-controller", "kube-controller-manager"
	out[2].CloneSet.Name, out[2].Deployment.Name = "kruise-apiserver", "kube-apiserver (CRD)"
	servers := []string{"kube-apiserver", "kruise-apiserver", "etcd"}
	for _, s := range g.Sizes {
		cs, dep := s.side(ctrlbench.ScaleCloneSet), s.side(ctrlbench.ScaleDeployment)
		pods := float64(s.Workloads * s.PodsEach)
		add := func(series *GrowthSeries, v float64) {
			series.Points = append(series.Points, GrowthPoint{Pods: pods, Value: v})
		}
		if cs != nil && dep != nil && !cs.Ready.TimedOut && !dep.Ready.TimedOut {
			csCPU, csPeak := sideCost(cs, dep)
			depCPU, depPeak := sideCost(dep, cs)
			add(&out[0].CloneSet, csPeak)
			add(&out[0].Deployment, depPeak)
			add(&out[1].CloneSet, csCPU)
			add(&out[1].Deployment, depCPU)
		}
		if s.Kruise != nil && s.CRD != nil {
			add(&out[2].CloneSet, s.Kruise.Added("kruise-apiserver"))
			add(&out[2].Deployment, s.CRD.Added("kube-apiserver"))
		}
		for i, sd := range []*ctrlbench.ScaleSide{cs, dep} {
			if sd == nil || sd.ServersIdle == nil || sd.ServersBefore == nil {
				continue
			}
			var rss, cpu float64
			for _, p := range servers {
				rss += sd.ServersIdle[p].RSSMiB - sd.ServersBefore[p].RSSMiB
				cpu += sd.Ready.Processes[p].CPUSeconds
			}
			series := []*GrowthSeries{&out[3].CloneSet, &out[3].Deployment}[i]
			add(series, rss)
			if !sd.Ready.TimedOut {
				add([]*GrowthSeries{&out[4].CloneSet, &out[4].Deployment}[i], cpu)
			}
		}
	}
	for i := range out {
		for _, series := range []*GrowthSeries{&out[i].CloneSet, &out[i].Deployment} {
			x, y := make([]float64, len(series.Points)), make([]float64, len(series.Points))
			for j, p := range series.Points {
				x[j], y[j] = p.Pods, p.Value
			}
			if l, err := FitLine(x, y); err == nil {
				series.Line = &l
			}
		}
	}
	return out
}

// judgeGrowth: kruise-controller's per-pod peak RSS slope at most half kube-
// controller-manager's.
func judgeGrowth(g *GrowthResults) []Target {
	var out []Target
	for _, c := range GrowthComparisons(g) {
		if c.Limit == 0 {
			continue
		}
		t := Target{Name: fmt.Sprintf("Growth: %s's per-pod %s slope vs %s's (least squares over %d sizes)",
			c.CloneSet.Name, strings.TrimPrefix(c.Measure, "controller "), c.Deployment.Name, len(c.CloneSet.Points)),
			Want: fmt.Sprintf("≤ %g×", c.Limit)}
		if r, ok := c.SlopeRatio(); !ok {
			t.Missing, t.Got = true, "no figure (fewer than two sizes, or the Deployments' slope not positive)"
		} else {
			t.Got = fmt.Sprintf("%.2f× (%.1f vs %.1f KiB per pod)", r, c.CloneSet.Line.Slope*1024, c.Deployment.Line.Slope*1024)
			t.Met = c.Met()
		}
		out = append(out, t)
	}
	return out
}

// perPod formats a slope per pod in a unit that reads well: KiB for MiB, ms for CPU s.
func perPod(slope float64, unit string) string {
	switch unit {
	case "MiB":
		return fmt.Sprintf("%.2f KiB", slope*1024)
	case "CPU s":
		return fmt.Sprintf("%.2f ms", slope*1000)
	}
	return fmt.Sprintf("%.4g %s", slope, unit)
}

// growthMarkdown renders the growth phase: the figures per size, the slopes, the
// extrapolation and the chart.
func growthMarkdown(r *Results, chartDir string, short bool) string {
	g := r.Growth
	if g == nil || len(g.Sizes) == 0 {
		return ""
	}
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	var sizes []string
	for _, s := range g.Sizes {
		sizes = append(sizes, fmt.Sprintf("%d", s.Workloads))
	}
	w("\n### Growth: the scale phase at %s workloads × %d pods per side\n\n", strings.Join(sizes, ", "), g.PodsEach)
	comps := GrowthComparisons(g)
	w("Figures per size (pods = workloads × %d):\n\n| measure | side |", g.PodsEach)
	for _, s := range g.Sizes {
		w(" %d pods |", s.Workloads*s.PodsEach)
	}
	w("\n|---|---|%s\n", strings.Repeat("---|", len(g.Sizes)))
	for _, c := range comps {
		for _, series := range []GrowthSeries{c.CloneSet, c.Deployment} {
			w("| %s (%s) | %s |", c.Measure, c.Unit, series.Name)
			for _, s := range g.Sizes {
				v := "–"
				for _, p := range series.Points {
					if p.Pods == float64(s.Workloads*s.PodsEach) {
						v = fmt.Sprintf("%.1f", p.Value)
					}
				}
				w(" %s |", v)
			}
			w("\n")
		}
	}
	w("\nSlopes (least squares against pods) and the lines at %d pods:\n\n", GrowthExtrapolatePods)
	w("| measure | side | per pod | at 0 pods | R² | at %d pods | slope ratio CloneSet/Deployment | target |\n|---|---|---|---|---|---|---|---|\n", GrowthExtrapolatePods)
	for _, c := range comps {
		ratio := "–"
		r, ok := c.SlopeRatio()
		if ok {
			ratio = fmt.Sprintf("%.2f×", r)
		}
		target := "–"
		if c.Limit > 0 {
			verdict := "no figure"
			if ok {
				verdict = "missed"
				if c.Met() {
					verdict = "met"
				}
			}
			target = fmt.Sprintf("≤ %g×: **%s**", c.Limit, verdict)
		}
		for i, series := range []GrowthSeries{c.CloneSet, c.Deployment} {
			r, t := "", ""
			if i == 0 {
				r, t = ratio, target
			}
			if series.Line == nil {
				w("| %s | %s | – | – | – | – | %s | %s |\n", c.Measure, series.Name, r, t)
				continue
			}
			l := series.Line
			at := fmt.Sprintf("%.0f %s", l.At(GrowthExtrapolatePods), c.Unit)
			if l.Slope <= 0 {
				// A cost does not shrink with more pods: the sizes' differences are
				// within the reading's noise, and a line through them says nothing.
				at = "– (no growth measured: within the noise)"
			}
			w("| %s | %s | %s | %.1f %s | %.2f | %s | %s | %s |\n", c.Measure, series.Name, perPod(l.Slope, c.Unit),
				l.Intercept, c.Unit, l.R2, at, r, t)
		}
	}
	w("\n![growth](%s/%s)\n", chartDir, growthChartName(r))
	if !short {
		for _, s := range g.Sizes {
			w("%s", scaleMarkdown(s, true))
		}
	}
	return b.String()
}
