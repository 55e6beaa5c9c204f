package nodebench

import (
	"os"
	"testing"
)

// TestSamplerOwnProcess: the sampler reads this process's CPU, which only grows.
func TestSamplerOwnProcess(t *testing.T) {
	s := StartSampler([]Process{{Name: "self", Find: Pid(selfPid())}, {Name: "none", Find: Pid(0)}}, 10_000_000)
	x := 0
	for i := 0; i < 20_000_000; i++ {
		x += i % 7
	}
	_ = x
	got := s.Stop()
	if got["self"] < 0 || got["none"] != 0 {
		t.Errorf("cpu %v", got)
	}
}

func selfPid() int { return os.Getpid() }
