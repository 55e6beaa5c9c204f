// Package proc reads a process's CPU time and memory from /proc: the cost figures of the
// benchmark (CPU seconds and peak RSS of each controller and API server).
package proc

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/kruise-native/kruise-native/internal/localstack"
)

// clockTicks is USER_HZ, the unit of utime/stime in /proc/<pid>/stat: 100 on every Linux
// architecture Go supports (sysconf(_SC_CLK_TCK) would need cgo).
const clockTicks = 100

// Sample is one reading of a process.
type Sample struct {
	CPUSeconds float64 // user + system since the process started
	RSSBytes   int64   // resident now (VmRSS)
	HWMBytes   int64   // peak resident (VmHWM), since start or the last ResetPeak
}

// Read samples a process.
func Read(pid int) (Sample, error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return Sample{}, fmt.Errorf("reading stat of %d: %w", pid, err)
	}
	// The command name (field 2) may hold spaces: fields are counted after its ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return Sample{}, fmt.Errorf("malformed /proc/%d/stat", pid)
	}
	f := strings.Fields(string(stat[i+1:]))
	// after ')': state(3) ... utime is field 14, stime 15 → indexes 11 and 12 here
	if len(f) < 13 {
		return Sample{}, fmt.Errorf("short /proc/%d/stat", pid)
	}
	utime, err1 := strconv.ParseFloat(f[11], 64)
	stime, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return Sample{}, fmt.Errorf("parsing cpu times of %d", pid)
	}
	mem, err := localstack.ReadMemory(pid)
	if err != nil {
		return Sample{}, err
	}
	return Sample{CPUSeconds: (utime + stime) / clockTicks, RSSBytes: mem.RSS, HWMBytes: mem.Peak}, nil
}

// ResetPeak resets VmHWM to the current RSS (clear_refs 5), so the next reading's
// peak covers one phase only. It needs to own the process or be root.
func ResetPeak(pid int) error {
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
		return fmt.Errorf("resetting the peak RSS of %d: %w", pid, err)
	}
	return nil
}
