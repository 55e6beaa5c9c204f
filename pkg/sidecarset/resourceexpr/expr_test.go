package resourceexpr

import (
	"math"
	"testing"
)

func TestEval(t *testing.T) {
	cases := []struct {
		src, variable string
		value, want   float64
	}{
		{"50m", "cpu", 0, 0.05},
		{"cpu*50%", "cpu", 0.6, 0.3},
		{"max(cpu*50%, 50m)", "cpu", 0.05, 0.05},
		{"min(max(max(max(0.5,0.5*cpu),cpu-1.0),cpu-1.0),3.0)", "cpu", 4, 3},
		{"min(max(max(max(0.5,0.5*cpu),cpu-1.0),cpu-1.0),3.0)", "cpu", 0.4, 0.5},
		{"(cpu + 1) * 2", "cpu", 1, 4},
		{"cpu + 1 * 2", "cpu", 1, 3},
		{"-cpu + 2", "cpu", 1, 1},
		{"cpu / 4", "cpu", 2, 0.5},
		{"max(memory*50%, 100Mi)", "memory", 400 * 1024 * 1024, 200 * 1024 * 1024},
		{"memory - 1Gi", "memory", 2 * 1024 * 1024 * 1024, 1024 * 1024 * 1024},
		{"1.5e3", "memory", 0, 1500},
		{"max(1, 2, 3)", "cpu", 0, 3},
	}
	for _, c := range cases {
		e, err := Parse(c.src, c.variable)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.src, err)
			continue
		}
		got, err := e.Eval(c.value)
		if err != nil {
			t.Errorf("Eval(%q): %v", c.src, err)
			continue
		}
		if math.Abs(got-c.want) > 1e-9*math.Max(1, math.Abs(c.want)) {
			t.Errorf("%q with %s=%v = %v, want %v", c.src, c.variable, c.value, got, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ src, variable string }{
		{"", "cpu"},
		{"cpu *", "cpu"},
		{"memory*2", "cpu"}, // the variable of the other resource
		{"foo(cpu)", "cpu"},
		{"max(cpu", "cpu"},
		{"max()", "cpu"},
		{"cpu)", "cpu"},
		{"50x", "cpu"},
		{"5Mi%", "memory"},
		{"cpu $ 2", "cpu"},
		{"(", "cpu"},
	}
	for _, c := range cases {
		if _, err := Parse(c.src, c.variable); err == nil {
			t.Errorf("Parse(%q, %q) succeeded, want an error", c.src, c.variable)
		}
	}
}

func TestEvalDivisionByZero(t *testing.T) {
	e, err := Parse("1/cpu", "cpu")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Eval(0); err == nil {
		t.Error("1/0 evaluated without an error")
	}
}
