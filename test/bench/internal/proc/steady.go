package proc

import (
	"context"
	"slices"
	"time"
)

// Steady is a process's resident memory once it has settled: the median of samples
// taken every second over a window (a single reading of a Go process lands anywhere
// between two garbage collections).
type Steady struct {
	RSSMiB  float64 `json:"rssMiB"` // median
	MinMiB  float64 `json:"minMiB"`
	MaxMiB  float64 `json:"maxMiB"`
	Samples int     `json:"samples"`
	// ForcedGC: a garbage collection was forced on the process just before the window
	// (pprof's heap?gc=1); without it the figure includes garbage not yet collected.
	ForcedGC bool `json:"forcedGC"`
	// HeapMiB: the Go live heap right after that forced GC (go_memstats_alloc_bytes).
	HeapMiB float64 `json:"heapMiB,omitempty"`
}

// SampleSteady waits settle, then samples every named process once a second for
// window, and returns each one's median RSS.
func SampleSteady(ctx context.Context, pids map[string]int, settle, window time.Duration) map[string]Steady {
	select {
	case <-ctx.Done():
		return nil
	case <-time.After(settle):
	}
	samples := map[string][]float64{}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	end := time.Now().Add(window)
	for {
		for name, pid := range pids {
			if s, err := Read(pid); err == nil {
				samples[name] = append(samples[name], mib(s.RSSBytes))
			}
		}
		if time.Now().After(end) {
			break
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
	out := map[string]Steady{}
	for name, v := range samples {
		slices.Sort(v)
		out[name] = Steady{RSSMiB: v[len(v)/2], MinMiB: v[0], MaxMiB: v[len(v)-1], Samples: len(v)}
	}
	return out
}
