package proc

import (
	"testing"
	"time"
)

func TestCoresBetween(t *testing.T) {
	for _, tc := range []struct {
		name          string
		before, after map[string]float64
		window        time.Duration
		want          float64
	}{
		{name: "two processes", before: map[string]float64{"a": 1, "b": 2}, after: map[string]float64{"a": 2, "b": 2.5}, window: 2 * time.Second, want: 0.75},
		{name: "a process gone counts nothing", before: map[string]float64{"a": 1, "b": 2}, after: map[string]float64{"a": 1.2}, window: time.Second, want: 0.2},
		{name: "a new process counts nothing", before: map[string]float64{"a": 1}, after: map[string]float64{"a": 1, "b": 9}, window: time.Second, want: 0},
		{name: "a restarted process (less CPU than before) counts nothing", before: map[string]float64{"a": 5}, after: map[string]float64{"a": 0.5}, window: time.Second, want: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := CoresBetween(tc.before, tc.after, tc.window); got < tc.want-1e-9 || got > tc.want+1e-9 {
				t.Errorf("CoresBetween = %v, want %v", got, tc.want)
			}
		})
	}
}
