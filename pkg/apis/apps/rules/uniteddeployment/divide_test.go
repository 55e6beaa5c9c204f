package uniteddeployment

import (
	"math"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/util/intstr"
)

func n(v int) *intstr.IntOrString    { x := intstr.FromInt32(int32(v)); return &x }
func p(v string) *intstr.IntOrString { x := intstr.FromString(v); return &x }

// fixed is subsets with replicas only; elastic with min/max.
func fixed(reps ...*intstr.IntOrString) []Quota {
	var out []Quota
	for i, r := range reps {
		out = append(out, Quota{Name: string(rune('a' + i)), Replicas: r})
	}
	return out
}

type mm struct{ min, max *intstr.IntOrString }

func elastic(bounds ...mm) []Quota {
	var out []Quota
	for i, b := range bounds {
		out = append(out, Quota{Name: string(rune('a' + i)), MinReplicas: b.min, MaxReplicas: b.max})
	}
	return out
}

func TestDivide(t *testing.T) {
	full := func(q []Quota, i int, room int32) []Quota {
		q = slices.Clone(q)
		q[i].Full, q[i].Room = true, room
		return q
	}
	for _, tc := range []struct {
		name    string
		total   int32
		subsets []Quota
		want    []int32
	}{
		// The documented example: 2, 50% and the rest.
		{"example 10", 10, fixed(n(2), p("50%"), nil), []int32{2, 5, 3}},
		{"example scaled to 20", 20, fixed(n(2), p("50%"), nil), []int32{2, 10, 8}},
		{"example scaled to 4", 4, fixed(n(2), p("50%"), nil), []int32{2, 2, 0}},
		{"numbers", 6, fixed(n(1), n(2), n(3)), []int32{1, 2, 3}},
		{"numbers under total: the rest is not placed", 10, fixed(n(1), n(2)), []int32{1, 2}},
		{"percents", 10, fixed(p("30%"), p("70%")), []int32{3, 7}},
		{"percent rounds half up", 5, fixed(p("50%"), nil), []int32{3, 2}},
		{"remainder shared evenly, first ones one more", 10, fixed(n(3), nil, nil), []int32{3, 4, 3}},
		{"remainder of three over two", 3, fixed(nil, nil), []int32{2, 1}},
		{"no shares at all", 9, fixed(nil, nil, nil), []int32{3, 3, 3}},
		{"shares above total: earlier first", 3, fixed(n(2), n(2), nil), []int32{2, 1, 0}},
		{"zero total", 0, fixed(n(2), p("50%"), nil), []int32{0, 0, 0}},
		{"no subsets", 5, nil, []int32{}},

		// Elastic, cost ordered: fill the first subsets up to their max, in order.
		{"elastic fills in order", 12, elastic(mm{nil, n(4)}, mm{nil, n(6)}, mm{nil, nil}), []int32{4, 6, 2}},
		{"elastic scale down empties the last first", 8, elastic(mm{nil, n(4)}, mm{nil, n(6)}, mm{nil, nil}), []int32{4, 4, 0}},
		{"elastic scale down further", 3, elastic(mm{nil, n(4)}, mm{nil, n(6)}, mm{nil, nil}), []int32{3, 0, 0}},
		{"elastic minimums first, in order", 5, elastic(mm{nil, n(4)}, mm{n(2), n(6)}, mm{n(2), nil}), []int32{1, 2, 2}},
		{"elastic minimums beyond total: earlier first", 3, elastic(mm{n(2), nil}, mm{n(2), nil}), []int32{2, 1}},
		{"elastic percents", 10, elastic(mm{nil, p("30%")}, mm{nil, nil}), []int32{3, 7}},
		{"elastic: what no max allows goes to the last", 10, elastic(mm{nil, n(2)}, mm{nil, n(3)}), []int32{2, 8}},

		// Adaptive: a full subset keeps its room, the rest moves on.
		{"adaptive moves to the next", 10, full(fixed(n(2), p("50%"), nil), 1, 1), []int32{2, 1, 7}},
		{"adaptive skips a full next subset", 12, full(full(elastic(mm{nil, n(4)}, mm{nil, n(6)}, mm{nil, nil}), 0, 1), 1, 0), []int32{1, 0, 11}},
		{"adaptive respects the next max; the rest stays", 10, full(elastic(mm{nil, n(5)}, mm{nil, n(6)}, mm{nil, n(1)}), 0, 2), []int32{3, 6, 1}},
		{"adaptive: nowhere to go stays", 4, full(fixed(nil, nil), 1, 0), []int32{2, 2}},
		{"adaptive: room above the share changes nothing", 10, full(fixed(n(2), nil), 0, 5), []int32{2, 8}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Divide(tc.total, tc.subsets)
			if err != nil {
				t.Fatal(err)
			}
			if len(tc.want) == 0 && len(got) == 0 {
				return
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Divide(%d) = %v, want %v", tc.total, got, tc.want)
			}
		})
	}
}

// Invariants over many totals: every replica placed exactly once when some subset
// takes the rest, and no subset above its maximum unless nothing else could take it.
// The totals include the largest replicas there are, with shares as large: the int32
// arithmetic never wraps (summed here in int64 to see it if it did).
func TestDivideInvariants(t *testing.T) {
	shapes := map[string][]Quota{
		"example":        fixed(n(2), p("50%"), nil),
		"elastic":        elastic(mm{n(1), n(4)}, mm{nil, p("40%")}, mm{nil, nil}),
		"even":           fixed(nil, nil, nil, nil),
		"adaptive":       {{Name: "a", MaxReplicas: n(5), Full: true, Room: 2}, {Name: "b", MaxReplicas: n(3)}, {Name: "c"}},
		"huge fixed":     fixed(n(math.MaxInt32), n(math.MaxInt32), nil),
		"huge elastic":   elastic(mm{n(math.MaxInt32), n(math.MaxInt32)}, mm{p("100%"), nil}, mm{nil, n(math.MaxInt32)}),
		"huge adaptive":  {{Name: "a", Replicas: n(math.MaxInt32), Full: true, Room: 1}, {Name: "b", MaxReplicas: n(math.MaxInt32)}, {Name: "c"}},
		"percents, full": {{Name: "a", Replicas: p("100%"), Full: true}, {Name: "b", Replicas: p("100%")}, {Name: "c"}},
	}
	var totals []int32
	for total := int32(0); total <= 60; total++ {
		totals = append(totals, total)
	}
	totals = append(totals, math.MaxInt32/2, math.MaxInt32-1, math.MaxInt32)
	for name, q := range shapes {
		for _, total := range totals {
			got, err := Divide(total, q)
			if err != nil {
				t.Fatal(err)
			}
			var sum int64
			for i, v := range got {
				if v < 0 {
					t.Fatalf("%s %d: subset %d negative: %v", name, total, i, got)
				}
				sum += int64(v)
			}
			if sum != int64(total) {
				t.Fatalf("%s %d: placed %d: %v", name, total, sum, got)
			}
		}
	}
}

func TestScaled(t *testing.T) {
	for _, tc := range []struct {
		v       intstr.IntOrString
		total   int32
		want    int32
		wantErr bool
	}{
		{intstr.FromInt32(3), 10, 3, false},
		{intstr.FromString("50%"), 10, 5, false},
		{intstr.FromString("33%"), 10, 3, false},
		{intstr.FromString("0%"), 10, 0, false},
		{intstr.FromString("101%"), 10, 0, true},
		{intstr.FromString("5"), 10, 0, true},
		{intstr.FromInt32(-1), 10, 0, true},
	} {
		got, err := Scaled(tc.v, tc.total)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("Scaled(%s, %d) = %d, %v", tc.v.String(), tc.total, got, err)
		}
	}
}
