package nodebench

import (
	"fmt"
	"sort"
	"strings"
)

// cpuColumns are the processes the table shows, in order.
var cpuColumns = []string{"kubelet", "containerd", "containerd shims", "kube-controller-manager", "kruise-controller", "kruise-node-daemon"}

// Label names a rollout in tables and charts.
func (r *Rollout) Label() string {
	if r.PreDownload {
		return r.Workload + " + pre-download"
	}
	return r.Workload
}

// Table is the rollout table (README's and the report's): the summary, each figure the
// median over the rounds.
func Table(rs *Results) string {
	return table(rs.Summary, false)
}

// RoundsTable has a row per rollout of every round.
func RoundsTable(rs *Results) string {
	return table(rs.Rollouts, true)
}

func table(rollouts []Rollout, rounds bool) string {
	var b strings.Builder
	head, sep := "", ""
	if rounds {
		head, sep = "round | ", "---|"
	}
	b.WriteString("| " + head + "workload | pods | wall s | per pod p50 s | per pod p99 s | UIDs kept | IPs kept | controller writes/pod | all writes/pod | kubelet CPU s | containerd CPU s (shims) |\n")
	b.WriteString("|" + sep + "---|---|---|---|---|---|---|---|---|---|---|\n")
	for i := range rollouts {
		r := &rollouts[i]
		round := ""
		if rounds {
			round = fmt.Sprintf("%d | ", r.Round)
		}
		if r.Error != "" {
			fmt.Fprintf(&b, "| %s%s | %d | did not finish: %s |||||||||\n", round, r.Label(), r.Pods, r.Error)
			continue
		}
		fmt.Fprintf(&b, "| %s%s | %d | %.1f | %.2f | %.2f | %d/%d | %d/%d | %.2f | %.2f | %.1f | %.1f (%.1f) |\n",
			round, r.Label(), r.Pods, r.WallSeconds, r.P50Seconds, r.P99Seconds, r.UIDsKept, r.Pods, r.IPsKept, r.Pods,
			r.ControllerWritesPerPod, r.AllWritesPerPod, r.CPUSeconds["kubelet"], r.CPUSeconds["containerd"], r.CPUSeconds["containerd shims"])
	}
	return b.String()
}

// TargetsTable is the verdicts' table.
func TargetsTable(ts []Target) string {
	var b strings.Builder
	b.WriteString("| target | want | got | |\n|---|---|---|---|\n")
	for _, t := range ts {
		fmt.Fprintf(&b, "| %s | %s | %s | **%s** |\n", t.Name, t.Want, t.Got, t.Verdict)
	}
	return b.String()
}

// Markdown is the full report.
func Markdown(rs *Results, chartFile string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Rollouts on a real node, %s\n\n", rs.Date)
	fmt.Fprintf(&b, "Command: `%s` (commit %s, started %s).\n\n", rs.Command, rs.Commit, rs.Start.UTC().Format("2006-01-02T15:04:05Z"))
	fmt.Fprintf(&b, "Node: one real node of `make test-cluster`'s harness (kubelet %s, containerd %s, %s, kernel %s); "+
		"Kruise Native installed with its Helm chart (etcd.mode=single, one kruise-controller). "+
		"%d pods per workload, every rollout at maxUnavailable %s and maxSurge 0, one workload on the node at a time.\n\n",
		rs.Node.Kubelet, rs.Node.Containerd, rs.Node.Runtime, rs.Node.Kernel, rs.Pods, rs.MaxUnavailable)
	m := rs.Machine
	others := "none"
	if len(m.Others) > 0 {
		others = strings.Join(m.Others, ", ")
	}
	fmt.Fprintf(&b, "Machine: %d cores shared with other engineers' stacks and builds (noisy): load average %.2f/%.2f/%.2f at the start, "+
		"%.2f/%.2f/%.2f at the end; other heavy programs at the start: %s.\n\n",
		m.Cores, m.LoadAvgStart[0], m.LoadAvgStart[1], m.LoadAvgStart[2], m.LoadAvgEnd[0], m.LoadAvgEnd[1], m.LoadAvgEnd[2], others)
	b.WriteString("## Targets\n\n")
	b.WriteString(TargetsTable(rs.Targets))
	fmt.Fprintf(&b, "\n## Rollouts: median of %d rounds\n\n", rs.Rounds)
	b.WriteString(Table(rs))
	if chartFile != "" {
		fmt.Fprintf(&b, "\n![per-pod times](%s)\n", chartFile)
	}
	b.WriteString("\n## Every round\n\n")
	b.WriteString(RoundsTable(rs))
	b.WriteString("\n## CPU seconds per rollout (median of the rounds)\n\n| workload |")
	for _, c := range cpuColumns {
		fmt.Fprintf(&b, " %s |", c)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(cpuColumns)) + "\n")
	for i := range rs.Summary {
		r := &rs.Summary[i]
		fmt.Fprintf(&b, "| %s |", r.Label())
		for _, c := range cpuColumns {
			fmt.Fprintf(&b, " %.2f |", r.CPUSeconds[c])
		}
		b.WriteString("\n")
	}
	b.WriteString("\n## Writes by client (the workload's namespace, Events left out)\n\n")
	for i := range rs.Rollouts {
		r := &rs.Rollouts[i]
		fmt.Fprintf(&b, "- round %d, %s (%d pods, %.1f s to ready before the rollout; %d pre-download jobs): %s\n",
			r.Round, r.Label(), r.Pods, r.ReadySeconds, r.ImagePullJobs, writesLine(r.Writes))
	}
	fmt.Fprintf(&b, "\nHost after the teardown: %s.\n", rs.HostRestored)
	b.WriteString("\n## Notes\n\n")
	for _, n := range rs.Notes {
		fmt.Fprintf(&b, "- %s\n", n)
	}
	return b.String()
}

// writesLine prints writes by client as "client: n (verb resource n, ...)", clients
// and keys sorted.
func writesLine(w map[string]map[string]int) string {
	var clients []string
	for c := range w {
		clients = append(clients, c)
	}
	sort.Strings(clients)
	var parts []string
	for _, c := range clients {
		var keys []string
		total := 0
		for k, n := range w[c] {
			keys = append(keys, fmt.Sprintf("%s %d", k, n))
			total += n
		}
		sort.Strings(keys)
		parts = append(parts, fmt.Sprintf("%s %d (%s)", c, total, strings.Join(keys, ", ")))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}
