package report

import (
	"fmt"
	"math"
)

// Line is a least-squares fit y = Intercept + Slope·x.
type Line struct {
	Slope     float64 `json:"slope"`
	Intercept float64 `json:"intercept"`
	// R2: the share of y's variance the line explains (1 when y does not vary).
	R2     float64 `json:"r2"`
	Points int     `json:"points"`
}

// At is the line's value at x: the extrapolation.
func (l Line) At(x float64) float64 { return l.Intercept + l.Slope*x }

// FitLine fits a line through (x[i], y[i]) by ordinary least squares. It needs at
// least two distinct x.
func FitLine(x, y []float64) (Line, error) {
	if len(x) != len(y) {
		return Line{}, fmt.Errorf("fit: %d x against %d y", len(x), len(y))
	}
	n := float64(len(x))
	if len(x) < 2 {
		return Line{}, fmt.Errorf("fit: %d points, a line needs two", len(x))
	}
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/n, my/n
	var sxx, sxy, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
	}
	if sxx == 0 {
		return Line{}, fmt.Errorf("fit: every point at x = %g, no slope", mx)
	}
	l := Line{Slope: sxy / sxx, Points: len(x)}
	l.Intercept = my - l.Slope*mx
	l.R2 = 1
	if syy > 0 {
		var res float64
		for i := range x {
			d := y[i] - l.At(x[i])
			res += d * d
		}
		l.R2 = math.Max(0, 1-res/syy)
	}
	return l, nil
}
