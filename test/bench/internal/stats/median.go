package stats

import "slices"

// Median of values (the mean of the middle two for an even count); 0 when empty. The
// values are not reordered.
func Median(values []float64) float64 {
	if len(values) == 0 {
		return 0
	}
	v := slices.Clone(values)
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}
