package report

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Series is one line of a cumulative chart: the sorted times at which each item
// arrived, in seconds.
type Series struct {
	Label string
	Times []float64
	// Dashed draws the line dashed (a variant of the line before it).
	Dashed bool
}

// CumulativeChart draws, for each series, how many items had arrived by each time (a
// step up at each of its sorted times) into a PNG at file.
func CumulativeChart(file, title, xLabel, yLabel string, series []Series) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Add(plotter.NewGrid())
	for i, s := range series {
		if len(s.Times) == 0 {
			continue
		}
		xys := make(plotter.XYs, 0, 2*len(s.Times)+1)
		xys = append(xys, plotter.XY{X: 0, Y: 0})
		for k, t := range s.Times {
			xys = append(xys, plotter.XY{X: t, Y: float64(k)}, plotter.XY{X: t, Y: float64(k + 1)})
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return fmt.Errorf("chart line: %w", err)
		}
		l.Color = plotutil.Color(i)
		l.Width = vg.Points(1.5)
		if s.Dashed {
			l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		p.Add(l)
		p.Legend.Add(s.Label, l)
	}
	p.Legend.Top, p.Legend.Left = false, false
	p.Legend.XOffs, p.Legend.YOffs = -vg.Points(5), vg.Points(5)
	if err := p.Save(9*vg.Inch, 5*vg.Inch, file); err != nil {
		return fmt.Errorf("saving %s: %w", file, err)
	}
	return nil
}
