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
	self, _, err := CPUTimes(pid)
	if err != nil {
		return Sample{}, err
	}
	mem, err := localstack.ReadMemory(pid)
	if err != nil {
		return Sample{}, err
	}
	return Sample{CPUSeconds: self, RSSBytes: mem.RSS, HWMBytes: mem.Peak}, nil
}

// CPUTimes reads a process's CPU seconds from /proc/<pid>/stat: its own (utime +
// stime) and that of the children it waited for (cutime + cstime).
func CPUTimes(pid int) (self, children float64, err error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, fmt.Errorf("reading stat of %d: %w", pid, err)
	}
	self, children, err = parseStat(stat)
	if err != nil {
		return 0, 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
	}
	return self, children, nil
}

// parseStat reads utime, stime, cutime and cstime (fields 14-17) of a stat line. The
// command name (field 2) may hold spaces and parentheses: fields are counted after its
// last ')'.
func parseStat(stat []byte) (self, children float64, err error) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, fmt.Errorf("malformed stat")
	}
	// after ')': state is field 3, so field n is at index n-3.
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 15 {
		return 0, 0, fmt.Errorf("short stat")
	}
	var v [4]float64
	for k := range v {
		if v[k], err = strconv.ParseFloat(f[11+k], 64); err != nil {
			return 0, 0, fmt.Errorf("stat field %d: %w", 14+k, err)
		}
	}
	return (v[0] + v[1]) / clockTicks, (v[2] + v[3]) / clockTicks, nil
}

// ResetPeak resets VmHWM to the current RSS (clear_refs 5), so the next reading's
// peak covers one phase only. It needs to own the process or be root.
func ResetPeak(pid int) error {
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
		return fmt.Errorf("resetting the peak RSS of %d: %w", pid, err)
	}
	return nil
}
