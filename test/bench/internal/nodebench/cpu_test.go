package nodebench

import (
	"os"
	"testing"
)

func TestParseStat(t *testing.T) {
	// Field 2 holds spaces and a ')': the times are counted after the last ')'.
	// utime 250, stime 50, cutime 30, cstime 20 ticks.
	line := []byte("1234 (containerd-shim (x) y) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 30 20 20 0 10 0 100 0 0")
	self, children, err := parseStat(line)
	if err != nil {
		t.Fatal(err)
	}
	if self != 3.0 || children != 0.5 {
		t.Errorf("self %v children %v, want 3 and 0.5", self, children)
	}
	if _, _, err := parseStat([]byte("1234 (short) S 1 2")); err == nil {
		t.Errorf("a short line parsed")
	}
	if _, _, err := parseStat([]byte("no parenthesis")); err == nil {
		t.Errorf("a line without the name parsed")
	}
}

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
