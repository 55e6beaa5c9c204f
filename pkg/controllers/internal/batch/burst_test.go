package batch

import (
	"math"
	"testing"
)

func TestClamp(t *testing.T) {
	for _, tc := range []struct{ in, want int }{
		{-5, 0},
		{0, 0},
		{1, 1},
		{Burst - 1, Burst - 1},
		{Burst, Burst},
		{Burst + 1, Burst},
		{math.MaxInt32, Burst},
		{math.MaxInt, Burst},
		{math.MinInt, 0},
	} {
		if got := Clamp(tc.in); got != tc.want {
			t.Errorf("Clamp(%d) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestFirst(t *testing.T) {
	for _, n := range []int{0, 1, Burst, Burst + 1, 3 * Burst} {
		items := make([]int, n)
		for i := range items {
			items[i] = i
		}
		got := First(items)
		if want := min(n, Burst); len(got) != want {
			t.Errorf("First of %d items: %d, want %d", n, len(got), want)
		}
		for i, v := range got {
			if v != i {
				t.Fatalf("First of %d items: item %d is %d, want the first ones in order", n, i, v)
			}
		}
	}
}
