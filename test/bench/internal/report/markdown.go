package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kruise-native/kruise-native/test/bench/internal/apibench"
	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
	"github.com/kruise-native/kruise-native/test/bench/internal/stats"
)

// Markdown renders the results; chartDir is how the Markdown's location reaches the
// PNGs (e.g. "." beside them, "test/bench/results" from the README). The short form
// (the README's) leaves out the per-verb and per-client breakdowns and the profiles.
func Markdown(r *Results, chartDir string, short bool) string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	m := r.Machine
	if r.Config.Phases == "scale" || r.Config.Phases == "growth" {
		w("Run of %s (commit %s), the %s phase alone. ", r.Started, r.Commit, r.Config.Phases)
	} else {
		w("Run of %s (commit %s): %d kwok nodes", r.Started, r.Commit, r.Config.Nodes)
		if ran(r, "controller") {
			w(", %d pods per workload", r.Config.Pods)
		}
		w(", every controller at client QPS/burst %d/%d. ", r.Config.QPS, r.Config.Burst)
	}
	w("Machine: %d cores, load average %.2f/%.2f/%.2f at start, %.2f/%.2f/%.2f at the end",
		m.NProc, m.LoadAvgStart[0], m.LoadAvgStart[1], m.LoadAvgStart[2], m.LoadAvgEnd[0], m.LoadAvgEnd[1], m.LoadAvgEnd[2])
	if m.Shared {
		w("; **shared**: other engineers' stacks or tests ran meanwhile (%s), so wall times are pessimistic — the writes per pod are not affected",
			strings.Join(dedupe(append(m.OtherAtStart, m.OtherAtFinish...)), ", "))
	}
	w(".\n\n")
	if r.Command != "" {
		w("Command: `%s`.\n\n", r.Command)
	}

	w("### Targets\n\n| target | want | got | |\n|---|---|---|---|\n")
	for _, t := range r.Targets {
		verdict := "missed"
		switch {
		case t.Missing:
			verdict = "no figure"
		case t.Met:
			verdict = "met"
		}
		w("| %s | %s | %s | **%s** |\n", t.Name, t.Want, t.Got, verdict)
	}

	if len(r.Controller) > 0 {
		w("\n### Controllers (%d pods)\n\n", r.Config.Pods)
		phaseTables(&b, r.Controller, short)
		w("\n![scale-up](%s/%s-scaleup.png)\n![rollout](%s/%s-rollout.png)\n", chartDir, r.Date, chartDir, r.Date)
	}

	if len(r.DaemonSets) > 0 {
		w("\n### DaemonSets (%d kwok nodes, one pod on each)\n\n", r.DaemonSets[0].Pods)
		phaseTables(&b, r.DaemonSets, short)
	}

	if len(r.Jobs) > 0 {
		w("\n### Jobs (one pod per node, 1 s modelled run time)\n\n")
		w("| workload | nodes | pods | to Complete s | controller writes/pod | all writes/pod | controller CPU s |\n|---|---|---|---|---|---|---|\n")
		for _, j := range r.Jobs {
			ctl := ctrlbench.ControllerProcess(j.Workload)
			wall := fmt.Sprintf("%.1f", j.Seconds)
			if j.TimedOut {
				wall += " (timed out)"
			}
			w("| %s | %d | %d | %s | %.2f | %.2f | %.1f |\n", j.Workload, j.Nodes, j.Pods, wall,
				j.ControllerWritesPerPod, j.AllWritesPerPod, j.Processes[ctl].CPUSeconds)
		}
		if !short {
			w("\nJob controller writes by verb and resource (events left out, counted apart):\n\n")
			for _, j := range r.Jobs {
				w("- %s: %s; events %d\n", j.Workload, formatCounts(j.ControllerWrites), j.ControllerEvents)
			}
		}
	}

	if len(r.API) > 0 {
		peer := ""
		if len(byRound(r.API, apibench.DeploymentTarget)) > 0 {
			peer = "; deployment: as many built-in Deployments of the same size"
		}
		w("\n### API: %d CloneSets, %d clients, through kube-apiserver (kruise-apiserver-direct: the same server without kube-apiserver's proxy in front, for comparison only%s)\n\n", r.Config.Objects, r.Config.Clients, peer)
		w("| server | operation | requests | per s | p50 ms | p99 ms | bytes/response (wire) |\n|---|---|---|---|---|---|---|\n")
		for _, a := range r.API {
			row := func(op string, s *stats.Summary) {
				if s == nil {
					return
				}
				errs := ""
				if s.Errors > 0 {
					errs = fmt.Sprintf(" (%d failed)", s.Errors)
				}
				w("| %s | %s | %d%s | %.1f | %.1f | %.1f | %.0f (%.0f) |\n", targetLabel(a), op, s.Requests, errs, s.PerSec, s.P50ms, s.P99ms, s.BytesAvg, s.WireAvg)
			}
			row("create (JSON)", &a.Create)
			row("get (JSON)", &a.Get)
			row("get (protobuf)", a.GetProtobuf)
			row("list all (JSON)", &a.ListJSON)
			row("list all (protobuf)", a.ListProtobuf)
			row(fmt.Sprintf("patch while %d watch", a.Watch.Watchers), &a.Watch.Writes)
		}
		w("\nCRDs only speak JSON: the CRD has no protobuf rows.\n")
		if pr := r.APICreatePairs; pr != nil && len(pr.Rounds) > 0 {
			w("\nCreate throughput in alternating rounds (%d CloneSets per server per round, %d clients, deleted after each round; what the target is judged on):\n\n",
				r.Config.RoundObjects, r.Config.Clients)
			w("| round | order | %s per s | %s per s | ratio | %s p50 / p99 ms | %s p50 / p99 ms |\n|---|---|---|---|---|---|---|\n",
				pr.Base, pr.Subject, pr.Base, pr.Subject)
			for i, p := range pr.Rounds {
				order := pr.Base + " first"
				if p.SubjectFirst {
					order = pr.Subject + " first"
				}
				w("| %d | %s | %.1f | %.1f | %.2f | %.0f / %.0f | %.0f / %.0f |\n", i+1, order, p.Base.PerSec, p.Subject.PerSec,
					p.Ratio, p.Base.P50ms, p.Base.P99ms, p.Subject.P50ms, p.Subject.P99ms)
			}
			w("\nMedian ratio: **%.2f×**.\n", pr.MedianRatio)
		}
		w("\n")
		w("| server | watchers | events expected / received | delivery p50 ms | p99 ms | bytes/event | RSS after create MiB | peak RSS MiB |\n|---|---|---|---|---|---|---|---|\n")
		for _, a := range r.API {
			server := serverProcess(a)
			w("| %s | %d | %d / %d | %.1f | %.1f | %.0f | %.0f | %.0f |\n", targetLabel(a), a.Watch.Watchers, a.Watch.EventsExpected,
				a.Watch.EventsReceived, a.Watch.DeliveryP50ms, a.Watch.DeliveryP99ms, a.Watch.BytesPerEvent,
				a.RSSAfterCreateMiB[server], a.Processes[server].PeakRSSMiB)
		}
		b.WriteString(builtinMarkdown(r))
	}

	if c := r.Ceiling; c != nil {
		w("\n### Ceiling: a bare client, no rate limit\n\n")
		if len(c.Batches) == 0 {
			w("%d pods created by %d clients at %.0f pods/s (p50 %.0f ms, p99 %.0f ms, %d failed); all Running and Ready after %.1f s.\n",
				c.Pods, c.Clients, c.Create.PerSec, c.Create.P50ms, c.Create.P99ms, c.Create.Errors, c.RunningSeconds)
		} else {
			w("%d pods created by %d clients per batch, with the Pod webhook registered (a SidecarSet selecting other pods, no handler matching these) and with its MutatingWebhookConfiguration removed; the webhook columns are kube-apiserver's metrics for its CREATE calls during the creates, \"skipped\" the creates its match condition kept from calling it.\n\n", c.Pods, c.Clients)
			w("| round | Pod webhook | quiet after s | pods/s | p50 ms | p99 ms | failed | Ready after s | webhook calls | skipped | webhook p50 ≤ s | webhook p99 ≤ s | failed open |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
			for _, b := range c.Batches {
				hook := webhookRegistration(b.Webhook)
				ready := "not within 5 min"
				if b.RunningSeconds > 0 {
					ready = fmt.Sprintf("%.1f", b.RunningSeconds)
				}
				w("| %d | %s | %s | %.0f | %.0f | %.0f | %d | %s | %.0f | %.0f | %g | %g | %.0f |\n", b.Round, hook, quietAfter(b.Quiet), b.Create.PerSec, b.Create.P50ms,
					b.Create.P99ms, b.Create.Errors, ready, b.Calls.Calls, b.Calls.Skipped, b.Calls.P50, b.Calls.P99, b.Calls.FailOpen)
			}
			w("\nReady after: until every pod the batch created (the failed creates left out) was Ready. A round with failed creates gives no webhook ratio.\n")
			w("Quiet after: each batch starts once the stack's processes (node daemons included) together use less than %.2f cores over 2 s; \"not quiet\" when 2 minutes passed first.\n", c.QuietCores)
			w("\nCPU seconds per batch, from the first create until all were Ready:\n\n")
			for _, b := range c.Batches {
				w("- round %d, webhook %s: %s\n", b.Round, webhookRegistration(b.Webhook), batchCPU(b.CPUSeconds))
			}
		}
		if len(c.Settled) > 0 {
			var settled []string
			for _, p := range sortedKeys(c.Settled) {
				settled = append(settled, fmt.Sprintf("%s %.0f MiB", p, c.Settled[p].RSSMiB))
			}
			w("\nSettled RSS with the last batch's pods all Ready (median of 1 s samples): %s.\n", strings.Join(settled, ", "))
		}
	}

	b.WriteString(scaleMarkdown(r.Scale, short))
	b.WriteString(growthMarkdown(r, chartDir, short))

	if len(r.Profiles) > 0 && !short {
		w("\n### Profiles\n\n")
		for _, p := range r.Profiles {
			w("- `%s`\n", p.File)
		}
	}
	if len(r.Errors) > 0 {
		w("\n### Errors\n\n")
		for _, e := range r.Errors {
			w("- %s\n", e)
		}
	}
	if len(r.Notes) > 0 {
		w("\n### Notes\n\n")
		for _, n := range r.Notes {
			w("- %s\n", n)
		}
	}
	return b.String()
}

// phaseTables writes the table of controller phases (kwok mode, workload, phase, wall
// time, writes per pod, the controller process's cost) and, unless short, the writes
// behind them by verb and by client.
func phaseTables(b *strings.Builder, phases []ctrlbench.Phase, short bool) {
	w := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	w("| kwok | workload | phase | wall s | controller writes/pod | all writes/pod | controller CPU s | controller peak RSS MiB |\n")
	w("|---|---|---|---|---|---|---|---|\n")
	for _, p := range phases {
		u := p.Processes[ctrlbench.ControllerProcess(p.Workload)]
		wall := fmt.Sprintf("%.1f", p.Seconds)
		if p.TimedOut {
			wall += " (timed out)"
		}
		w("| %s | %s | %s | %s | %.2f | %.2f | %.1f | %.0f |\n", p.Mode, p.Workload, p.Phase, wall,
			p.ControllerWritesPerPod, p.AllWritesPerPod, u.CPUSeconds, u.PeakRSSMiB)
	}
	if short {
		return
	}
	w("\nController writes by verb and resource (events left out, counted apart):\n\n")
	for _, p := range phases {
		w("- %s, %s, %s: %s; events %d\n", p.Mode, p.Workload, p.Phase, formatCounts(p.ControllerWrites), p.ControllerEvents)
	}
	w("\nAll writes per client (every write to kube-apiserver in the workload's namespace):\n\n")
	for _, p := range phases {
		var parts []string
		for _, c := range sortedKeys(p.AllWrites) {
			n := 0
			for _, v := range p.AllWrites[c] {
				n += v
			}
			parts = append(parts, fmt.Sprintf("%s %d", c, n))
		}
		w("- %s, %s, %s: %s\n", p.Mode, p.Workload, p.Phase, strings.Join(parts, ", "))
	}
}

// serverProcess is the process holding a target's objects.
func serverProcess(a *apibench.Result) string {
	if a.Target == "crd" || a.Target == apibench.DeploymentTarget {
		return "kube-apiserver"
	}
	return "kruise-apiserver"
}

// targetLabel names a target's row, with its round after the first.
func targetLabel(a *apibench.Result) string {
	if a.Round > 1 {
		return fmt.Sprintf("%s (round %d)", a.Target, a.Round)
	}
	return a.Target
}

func formatCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func dedupe(l []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range l {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
