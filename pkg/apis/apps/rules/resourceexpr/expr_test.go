package resourceexpr

import (
	"math"
	"strings"
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
		// Decimal exponents as resource.ParseQuantity reads them: e or E right after
		// the digits, an optional sign, digits. A bare E is the exa suffix.
		{"1e+3", "memory", 0, 1000},
		{"1E+3", "memory", 0, 1000},
		{"1E3", "memory", 0, 1000},
		{"1e3", "memory", 0, 1000},
		{"1E-3", "cpu", 0, 0.001},
		{"1.5e-3", "cpu", 0, 0.0015},
		{"2E", "memory", 0, 2e18},
		{"2E + 3", "memory", 0, 2e18 + 3},
		{"2E+memory", "memory", 1, 2e18 + 1},
		{"memory-1E+3", "memory", 5000, 4000},
		{"1Ki+1", "memory", 0, 1025},
		{"1M-1", "memory", 0, 999999},
		{"50m+50m", "cpu", 0, 0.1},
		// Nesting up to MaxDepth levels is fine.
		{strings.Repeat("(", MaxDepth) + "cpu" + strings.Repeat(")", MaxDepth), "cpu", 2, 2},
		{strings.Repeat("-", MaxDepth) + "cpu", "cpu", 2, 2},
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
		{"1E+", "memory"},
		{"2Mi+3e", "memory"},
		// Past the nesting and length caps.
		{strings.Repeat("(", MaxDepth+1) + "cpu" + strings.Repeat(")", MaxDepth+1), "cpu"},
		{strings.Repeat("-", MaxDepth+1) + "cpu", "cpu"},
		{strings.Repeat("max(", MaxDepth+1) + "cpu" + strings.Repeat(")", MaxDepth+1), "cpu"},
		{strings.Repeat("-(", MaxDepth/2+1) + "cpu" + strings.Repeat(")", MaxDepth/2+1), "cpu"},
		{"cpu" + strings.Repeat(" ", MaxLength-3+1), "cpu"},
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

// The caps name what was exceeded, and a hostile multi-megabyte input (which used
// to recurse once per "(" until the stack blew) is refused without being lexed.
func TestParseLimits(t *testing.T) {
	huge := strings.Repeat("(", 1<<20) + "cpu" + strings.Repeat(")", 1<<20)
	cases := []struct {
		name, src, want string
	}{
		{"1 MB of parentheses", huge, "more than the 1024 allowed"},
		{"1 MB of unary minus", strings.Repeat("-", 1<<20) + "cpu", "more than the 1024 allowed"},
		{"one byte too long", "cpu" + strings.Repeat(" ", MaxLength-2), "more than the 1024 allowed"},
		{"parentheses one level too deep", strings.Repeat("(", MaxDepth+1) + "cpu" + strings.Repeat(")", MaxDepth+1), "nests more than 32 levels"},
		{"within the length, far too deep", strings.Repeat("(", 500) + "cpu" + strings.Repeat(")", 500), "nests more than 32 levels"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The length error is returned before lexing, so it also shows the
			// input was refused up front rather than parsed (no wall-clock bound:
			// timings belong in benchmarks).
			_, err := Parse(c.src, "cpu")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Parse = %v, want an error containing %q", err, c.want)
			}
		})
	}
	if _, err := Parse("cpu"+strings.Repeat(" ", MaxLength-3), "cpu"); err != nil {
		t.Errorf("an expression of exactly %d bytes: %v", MaxLength, err)
	}
}
