package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kruise-native/kruise-native/test/bench/internal/proc"
)

// nodeDaemonPrefix names the node daemons' processes (one per kwok node), summed in the
// ceiling's CPU line.
const nodeDaemonPrefix = "kruise-node-daemon"

// batchCPU is one ceiling batch's CPU seconds per process, busiest first, the node
// daemons summed into one entry.
func batchCPU(cpu map[string]float64) string {
	summed := map[string]float64{}
	daemons := 0
	for name, s := range cpu {
		if strings.HasPrefix(name, nodeDaemonPrefix) {
			name = nodeDaemonPrefix
			daemons++
		}
		summed[name] += s
	}
	names := sortedKeys(summed)
	slices.SortStableFunc(names, func(a, b string) int { return cmp.Compare(summed[b], summed[a]) })
	var parts []string
	var total float64
	for _, name := range names {
		label := name
		if name == nodeDaemonPrefix {
			label = fmt.Sprintf("%s ×%d", name, daemons)
		}
		parts = append(parts, fmt.Sprintf("%s %.1f", label, summed[name]))
		total += summed[name]
	}
	if len(parts) == 0 {
		return "not measured"
	}
	return fmt.Sprintf("%.1f in all: %s", total, strings.Join(parts, ", "))
}

// quietAfter is how long a batch waited for a quiet stack.
func quietAfter(q proc.Idle) string {
	if !q.Reached && q.Seconds > 0 {
		return fmt.Sprintf("not quiet (%.0f s, %.2f cores)", q.Seconds, q.Cores)
	}
	return fmt.Sprintf("%.0f", q.Seconds)
}

// webhookRegistration names a ceiling batch's Pod webhook state.
func webhookRegistration(registered bool) string {
	if registered {
		return "registered"
	}
	return "not registered"
}
