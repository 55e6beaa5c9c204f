package main

import (
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/kruise-native/kruise-native/test/bench/internal/machine"
	"github.com/kruise-native/kruise-native/test/bench/internal/report"
)

func machineAtStart() report.Machine {
	m := report.Machine{NProc: runtime.NumCPU(), LoadAvgStart: machine.LoadAvg(), OtherAtStart: machine.OtherLoad("")}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
				m.MemTotalGiB = float64(int(kb/(1<<20)*10)) / 10
			}
		}
	}
	return m
}
