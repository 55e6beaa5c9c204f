package localstack

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Memory is a process's resident memory, from /proc/<pid>/status.
type Memory struct {
	// RSS is resident now (VmRSS); Peak the most it has been resident (VmHWM), since it
	// started or since the peak was last reset (clear_refs).
	RSS, Peak int64
}

// ReadMemory reads a process's memory.
func ReadMemory(pid int) (Memory, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return Memory{}, fmt.Errorf("reading status of %d: %w", pid, err)
	}
	defer f.Close()
	var m Memory
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch k {
		case "VmRSS":
			m.RSS = parseKB(v)
		case "VmHWM":
			m.Peak = parseKB(v)
		}
	}
	if err := sc.Err(); err != nil {
		return Memory{}, fmt.Errorf("reading status of %d: %w", pid, err)
	}
	return m, nil
}

// ComponentMemory reads the memory of a running component.
func (s *Stack) ComponentMemory(name string) (Memory, error) {
	pid, ok := s.PID(name)
	if !ok {
		return Memory{}, fmt.Errorf("%s is not running", name)
	}
	return ReadMemory(pid)
}

// parseKB reads a /proc/<pid>/status size ("  12345 kB") in bytes.
func parseKB(v string) int64 {
	n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
	return n * 1024
}
