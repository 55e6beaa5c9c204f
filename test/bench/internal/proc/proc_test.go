package proc

import "testing"

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
