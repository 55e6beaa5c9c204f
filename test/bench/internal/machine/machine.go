// Package machine says what else loads the machine while a benchmark runs: the load
// averages and the heavy programs that are not the benchmark's (other engineers' stacks
// and builds on the same cores).
package machine

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// heavy are the programs whose presence means someone else is loading the machine.
var heavy = map[string]bool{
	"kube-apiserver": true, "kruise-apiserver": true, "kube-controller-manager": true, "etcd": true,
	"kwok": true, "kruise-controller": true, "go": true, "compile": true, "link": true,
}

// OtherLoad lists heavy processes that are not ours (not under ourDir and not us),
// by program name with a count, e.g. "kube-apiserver×2".
func OtherLoad(ourDir string) []string {
	counts := map[string]int{}
	entries, _ := os.ReadDir("/proc")
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || pid == os.Getppid() {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(cmd) == 0 {
			continue
		}
		args := strings.Split(strings.TrimRight(string(cmd), "\x00"), "\x00")
		name := filepath.Base(args[0])
		if !heavy[name] || (ourDir != "" && strings.Contains(string(cmd), ourDir)) {
			continue
		}
		if name == "go" && (len(args) < 2 || (args[1] != "test" && args[1] != "build")) {
			continue
		}
		if name == "go" {
			name = "go " + args[1]
		}
		counts[name]++
	}
	var out []string
	for name, n := range counts {
		out = append(out, name+"×"+strconv.Itoa(n))
	}
	return out
}

// LoadAvg is /proc/loadavg's three averages.
func LoadAvg() [3]float64 {
	var out [3]float64
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return out
	}
	f := strings.Fields(string(b))
	for i := 0; i < 3 && i < len(f); i++ {
		out[i], _ = strconv.ParseFloat(f[i], 64)
	}
	return out
}
