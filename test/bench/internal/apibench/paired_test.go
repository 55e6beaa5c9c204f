package apibench

import "testing"

func TestMedianRatio(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ratios []float64
		want   float64
	}{
		{"none", nil, 0},
		{"one", []float64{0.8}, 0.8},
		{"odd count ignores one outlier", []float64{1.1, 0.2, 1.05}, 1.05},
		{"even count averages the middle two", []float64{1.3, 0.9, 1.1, 0.5}, 1.0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rounds []Pair
			for _, r := range tc.ratios {
				rounds = append(rounds, Pair{Ratio: r})
			}
			if got := MedianRatio(rounds); got != tc.want {
				t.Errorf("MedianRatio(%v) = %v, want %v", tc.ratios, got, tc.want)
			}
		})
	}
}
