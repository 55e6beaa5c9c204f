package nodebench

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kruise-native/kruise-native/test/bench/internal/proc"
)

// Process names a process the sampler follows.
type Process struct {
	Name string
	// Find returns its pids now (a pod's process may be restarted between rollouts).
	Find func() []int
	// Children: count the CPU of the children it waited for too (a containerd shim
	// waits for each runc it runs).
	Children bool
}

// Sampler adds up processes' CPU seconds over a window. Processes that come and go
// during it (containerd's shims, one per pod sandbox) are sampled every interval: one
// that starts counts from zero, one that exits loses at most its last interval.
type Sampler struct {
	procs    []Process
	interval time.Duration

	mu    sync.Mutex
	first map[string]map[int]float64 // at the first sighting (0 when born in the window)
	last  map[string]map[int]float64
	stop  context.CancelFunc
	done  chan struct{}
}

// StartSampler takes the first readings and samples until Stop.
func StartSampler(procs []Process, interval time.Duration) *Sampler {
	s := &Sampler{procs: procs, interval: interval, first: map[string]map[int]float64{}, last: map[string]map[int]float64{},
		done: make(chan struct{})}
	s.sample(true)
	ctx, cancel := context.WithCancel(context.Background())
	s.stop = cancel
	go func() {
		defer close(s.done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				s.sample(false)
			}
		}
	}()
	return s
}

func (s *Sampler) sample(initial bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.procs {
		if s.first[p.Name] == nil {
			s.first[p.Name], s.last[p.Name] = map[int]float64{}, map[int]float64{}
		}
		for _, pid := range p.Find() {
			self, children, err := proc.CPUTimes(pid)
			if err != nil {
				continue // gone between the listing and the read
			}
			v := self
			if p.Children {
				v += children
			}
			if _, seen := s.first[p.Name][pid]; !seen {
				if initial {
					s.first[p.Name][pid] = v
				} else {
					s.first[p.Name][pid] = 0
				}
			}
			s.last[p.Name][pid] = v
		}
	}
}

// Stop takes the last readings and returns each process's CPU seconds in the window.
func (s *Sampler) Stop() map[string]float64 {
	s.stop()
	<-s.done
	s.sample(false)
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]float64{}
	for _, p := range s.procs {
		var sum float64
		for pid, v := range s.last[p.Name] {
			sum += v - s.first[p.Name][pid]
		}
		out[p.Name] = round2(sum)
	}
	return out
}

// Pid is a Find for one known pid (0: none).
func Pid(pid int) func() []int {
	return func() []int {
		if pid == 0 {
			return nil
		}
		return []int{pid}
	}
}

// Fixed is a Find for pids looked up once (by Matching, when the sampler starts): a
// process that lives through the window need not be looked for on every tick, which
// walks all of /proc.
func Fixed(pids []int) func() []int {
	return func() []int { return pids }
}

// Matching is a Find for the processes running program (argv[0]'s base name) whose
// command line contains every one of subs and, when cgroup is set, whose
// /proc/<pid>/cgroup contains it (a pod's process: "kubepods"; other engineers run the
// same programs outside the node).
func Matching(cgroup, program string, subs ...string) func() []int {
	return func() []int {
		var out []int
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			if _, err := strconv.Atoi(e.Name()); err != nil {
				continue
			}
			cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			if err != nil || len(cmd) == 0 {
				continue
			}
			argv0, _, _ := strings.Cut(string(cmd), "\x00")
			if filepath.Base(argv0) != program || !containsAll(string(cmd), subs) {
				continue
			}
			if cgroup != "" {
				cg, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cgroup"))
				if err != nil || !strings.Contains(string(cg), cgroup) {
					continue
				}
			}
			pid, _ := strconv.Atoi(e.Name())
			out = append(out, pid)
		}
		return out
	}
}

func containsAll(s string, subs []string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}
