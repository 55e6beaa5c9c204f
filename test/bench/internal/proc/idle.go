package proc

import (
	"context"
	"time"
)

// Idle is how a wait for a quiet stack ended.
type Idle struct {
	// Seconds waited until the stack was quiet (or the limit, when it never was).
	Seconds float64 `json:"seconds"`
	// Reached: the processes' CPU fell below the bound before the limit.
	Reached bool `json:"reached"`
	// Cores: the processes' CPU over the last window, in cores (CPU seconds per second).
	Cores float64 `json:"cores"`
}

// WaitIdle waits until the named processes together use less than maxCores over one
// window, or limit has passed. A stack that has just deleted thousands of objects goes
// on working after the last delete is acknowledged (watchers notified, node agents and
// controllers catching up, the garbage collected), and a batch started then pays for the
// previous one's tail.
func WaitIdle(ctx context.Context, pids map[string]int, window time.Duration, maxCores float64, limit time.Duration) Idle {
	start := time.Now()
	prev := CPU(pids)
	t := time.NewTicker(window)
	defer t.Stop()
	var cores float64
	for {
		select {
		case <-ctx.Done():
			return Idle{Seconds: time.Since(start).Seconds(), Cores: cores}
		case <-t.C:
		}
		now := CPU(pids)
		cores = CoresBetween(prev, now, window)
		prev = now
		if cores < maxCores {
			return Idle{Seconds: time.Since(start).Seconds(), Reached: true, Cores: cores}
		}
		if time.Since(start) >= limit {
			return Idle{Seconds: time.Since(start).Seconds(), Cores: cores}
		}
	}
}

// CoresBetween is the CPU the processes used between two readings, in cores.
func CoresBetween(before, after map[string]float64, window time.Duration) float64 {
	var used float64
	for _, s := range Used(before, after) {
		used += s
	}
	return used / window.Seconds()
}

// Used is each process's CPU seconds between two readings (CPU). A process missing
// from either reading, or with less CPU than before (restarted), is left out.
func Used(before, after map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for name, a := range after {
		if b, found := before[name]; found && a >= b {
			out[name] = a - b
		}
	}
	return out
}

// CPU reads each process's CPU seconds since it started.
func CPU(pids map[string]int) map[string]float64 {
	out := map[string]float64{}
	for name, pid := range pids {
		if s, err := Read(pid); err == nil {
			out[name] = s.CPUSeconds
		}
	}
	return out
}
