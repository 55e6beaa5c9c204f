package report

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// growthChartName: a run of the growth phase alone has it as its only chart, named as
// the run; beside other phases it is <date>-growth.png.
func growthChartName(r *Results) string {
	if r.Config.Phases == "growth" {
		return r.Date + ".png"
	}
	return r.Date + "-growth.png"
}

// growthChart draws cost against pods, memory on the left and CPU on the right: each
// series' measured points and its least-squares line, solid for the CloneSets' side
// and dashed for the Deployments'.
func growthChart(r *Results, dir string) (string, error) {
	comps := GrowthComparisons(r.Growth)
	if len(comps) == 0 {
		return "", nil
	}
	maxPods := 0.0
	for _, s := range r.Growth.Sizes {
		maxPods = max(maxPods, float64(s.Workloads*s.PodsEach))
	}
	panels := map[string]*plot.Plot{}
	for _, unit := range []string{"MiB", "CPU s"} {
		p := plot.New()
		p.Title.Text = map[string]string{"MiB": "Memory against pods", "CPU s": "CPU seconds against pods"}[unit]
		p.X.Label.Text = "pods"
		p.Y.Label.Text = unit
		p.X.Min, p.Y.Min = 0, 0
		p.Add(plotter.NewGrid())
		p.Legend.Top, p.Legend.Left = true, true
		panels[unit] = p
	}
	n := 0
	for _, c := range comps {
		p := panels[c.Unit]
		col := plotutil.Color(n)
		n++
		for i, series := range []GrowthSeries{c.CloneSet, c.Deployment} {
			if len(series.Points) == 0 {
				continue
			}
			xys := make(plotter.XYs, len(series.Points))
			for j, pt := range series.Points {
				xys[j] = plotter.XY{X: pt.Pods, Y: pt.Value}
			}
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return "", fmt.Errorf("growth chart: %w", err)
			}
			sc.Color = col
			sc.Shape = plotutil.Shape(i)
			p.Add(sc)
			label := fmt.Sprintf("%s: %s", shortMeasure(c.Measure), series.Name)
			if series.Line == nil {
				p.Legend.Add(label, sc)
				continue
			}
			l := *series.Line
			fn := plotter.NewFunction(l.At)
			fn.XMin, fn.XMax = 0, maxPods
			fn.Color = col
			fn.Width = vg.Points(1.2)
			if i == 1 {
				fn.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			}
			p.Add(fn)
			p.Legend.Add(fmt.Sprintf("%s (%s/pod)", label, perPod(l.Slope, c.Unit)), sc, fn)
		}
	}
	img := vgimg.New(16*vg.Inch, 7*vg.Inch)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Inch / 4, PadTop: vg.Inch / 8, PadBottom: vg.Inch / 8, PadLeft: vg.Inch / 8, PadRight: vg.Inch / 8}
	plots := [][]*plot.Plot{{panels["MiB"], panels["CPU s"]}}
	canvases := plot.Align(plots, tiles, dc)
	dc.SetColor(color.White)
	for j, p := range plots[0] {
		p.Draw(canvases[0][j])
	}
	file := filepath.Join(dir, growthChartName(r))
	f, err := os.Create(file)
	if err != nil {
		return "", fmt.Errorf("growth chart: %w", err)
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return "", fmt.Errorf("writing %s: %w", file, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("writing %s: %w", file, err)
	}
	return file, nil
}

// shortMeasure names a comparison in the chart's legend.
func shortMeasure(m string) string {
	switch {
	case m == "controller peak RSS":
		return "peak RSS"
	case m == "controller CPU seconds":
		return "CPU"
	case strings.HasPrefix(m, "RSS an API server adds"):
		return "API server adds (workloads only)"
	case strings.HasPrefix(m, "RSS the API servers"):
		return "API servers + etcd add (after idle)"
	}
	return "API servers + etcd CPU (ready)"
}
