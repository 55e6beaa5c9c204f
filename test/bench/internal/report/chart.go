package report

import (
	"fmt"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
)

// Charts draws the time-to-ready curves: one PNG per phase (scale-up, rollout), one
// line per workload, solid for kwok's immediate start and dashed for the modeled one.
// It returns the files written.
func Charts(r *Results, dir string) ([]string, error) {
	var files []string
	if r.Growth != nil {
		f, err := growthChart(r, dir)
		if err != nil {
			return nil, err
		}
		if f != "" {
			files = append(files, f)
		}
	}
	for _, ph := range []struct{ phase, title string }{
		{"scale-up", "Scale-up 0→%d: pods Ready"},
		{"rollout", "Image rollout of %d pods: pods Ready on the new image"},
	} {
		p := plot.New()
		p.Title.Text = fmt.Sprintf(ph.title, r.Config.Pods)
		p.X.Label.Text = "seconds since the change"
		p.Y.Label.Text = "pods"
		p.Legend.Top, p.Legend.Left = false, false
		p.Add(plotter.NewGrid())
		lines := 0
		for i, wl := range []string{ctrlbench.Deployment, ctrlbench.CloneSetInPlace, ctrlbench.CloneSetRecreate} {
			for j, mode := range modesOf(r) {
				phase := find(r, mode, wl, ph.phase)
				if phase == nil || len(phase.Curve) == 0 {
					continue
				}
				xys := make(plotter.XYs, 0, len(phase.Curve)+1)
				xys = append(xys, plotter.XY{X: 0, Y: 0})
				for k, t := range phase.Curve {
					xys = append(xys, plotter.XY{X: t, Y: float64(k + 1)})
				}
				l, err := plotter.NewLine(xys)
				if err != nil {
					return nil, fmt.Errorf("chart line: %w", err)
				}
				l.Color = plotutil.Color(i)
				l.Width = vg.Points(1.5)
				if j > 0 {
					l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
				}
				p.Add(l)
				p.Legend.Add(fmt.Sprintf("%s (%s, %.0f s)", wl, mode, phase.Seconds), l)
				lines++
			}
		}
		if lines == 0 {
			continue
		}
		p.Legend.Top, p.Legend.Left = false, false
		p.Legend.XOffs, p.Legend.YOffs = -vg.Points(5), vg.Points(5)
		file := filepath.Join(dir, fmt.Sprintf("%s-%s.png", r.Date, map[string]string{"scale-up": "scaleup", "rollout": "rollout"}[ph.phase]))
		if err := p.Save(9*vg.Inch, 5*vg.Inch, file); err != nil {
			return nil, fmt.Errorf("saving %s: %w", file, err)
		}
		files = append(files, file)
	}
	return files, nil
}

func modesOf(r *Results) []string {
	var modes []string
	for _, p := range r.Controller {
		if !contains(modes, p.Mode) {
			modes = append(modes, p.Mode)
		}
	}
	return modes
}

func find(r *Results, mode, wl, phase string) *ctrlbench.Phase {
	for i := range r.Controller {
		p := &r.Controller[i]
		if p.Mode == mode && p.Workload == wl && p.Phase == phase {
			return p
		}
	}
	return nil
}
