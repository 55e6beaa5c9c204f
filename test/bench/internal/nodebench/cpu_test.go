package nodebench

import (
	"os"
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/test/bench/internal/proc"
)

// TestSamplerOwnProcess: the sampler counts the CPU this process burns in its window.
func TestSamplerOwnProcess(t *testing.T) {
	pid := os.Getpid()
	before, _, err := proc.CPUTimes(pid)
	if err != nil {
		t.Fatal(err)
	}
	s := StartSampler([]Process{{Name: "self", Find: Pid(pid)}, {Name: "none", Find: Pid(0)}}, 10*time.Millisecond)
	// Burn CPU until this process's own reading grew by 0.05 s (5 ticks).
	deadline := time.Now().Add(30 * time.Second)
	x := 0
	for {
		for i := 0; i < 1_000_000; i++ {
			x += i % 7
		}
		now, _, err := proc.CPUTimes(pid)
		if err != nil {
			t.Fatal(err)
		}
		if now-before >= 0.05 {
			break
		}
		if time.Now().After(deadline) {
			s.Stop()
			t.Fatalf("own CPU grew only %.2f s in 30 s", now-before)
		}
	}
	_ = x
	got := s.Stop()
	// The sampler's first reading came after before: allow it one tick less.
	if got["self"] < 0.04 || got["none"] != 0 {
		t.Errorf("cpu %v, want self ≥ 0.04 and none 0", got)
	}
}
