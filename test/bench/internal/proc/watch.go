package proc

import (
	"context"
	"sync"
	"time"
)

// Usage is what a process cost during one phase.
type Usage struct {
	CPUSeconds  float64 `json:"cpuSeconds"`
	PeakRSSMiB  float64 `json:"peakRSSMiB"`
	StartRSSMiB float64 `json:"startRSSMiB"`
	EndRSSMiB   float64 `json:"endRSSMiB"`
}

// Watch measures named processes over a phase: CPU seconds between Start and Stop, and
// the peak RSS from VmHWM (reset at Start) or, where the reset is refused, from samples
// every 200 ms.
type Watch struct {
	pids   map[string]int
	start  map[string]Sample
	peak   map[string]int64
	reset  map[string]bool
	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan struct{}
}

// StartWatch begins a phase for the given processes (name → pid).
func StartWatch(ctx context.Context, pids map[string]int) *Watch {
	w := &Watch{pids: pids, start: map[string]Sample{}, peak: map[string]int64{}, reset: map[string]bool{}, done: make(chan struct{})}
	for name, pid := range pids {
		w.reset[name] = ResetPeak(pid) == nil
		if s, err := Read(pid); err == nil {
			w.start[name] = s
			w.peak[name] = s.RSSBytes
		}
	}
	ctx, w.cancel = context.WithCancel(ctx)
	go w.sample(ctx)
	return w
}

func (w *Watch) sample(ctx context.Context) {
	defer close(w.done)
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for name, pid := range w.pids {
			if s, err := Read(pid); err == nil {
				w.mu.Lock()
				w.peak[name] = max(w.peak[name], s.RSSBytes)
				w.mu.Unlock()
			}
		}
	}
}

// Stop ends the phase and returns each process's usage.
func (w *Watch) Stop() map[string]Usage {
	w.cancel()
	<-w.done
	out := map[string]Usage{}
	for name, pid := range w.pids {
		s, err := Read(pid)
		if err != nil {
			continue
		}
		peak := w.peak[name]
		if w.reset[name] {
			peak = max(peak, s.HWMBytes)
		}
		out[name] = Usage{
			CPUSeconds:  s.CPUSeconds - w.start[name].CPUSeconds,
			PeakRSSMiB:  mib(max(peak, s.RSSBytes)),
			StartRSSMiB: mib(w.start[name].RSSBytes),
			EndRSSMiB:   mib(s.RSSBytes),
		}
	}
	return out
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }
