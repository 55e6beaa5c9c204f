package report

import (
	"fmt"
	"strings"

	"github.com/kruise-native/kruise-native/test/bench/internal/audit"
	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
	"github.com/kruise-native/kruise-native/test/bench/internal/proc"
)

// ScaleResults are the scale phase's: many small workloads, Deployments against
// CloneSets, each side alone on the same stack.
type ScaleResults struct {
	Nodes     int `json:"nodes"`
	Workloads int `json:"workloads"`
	PodsEach  int `json:"podsEach"`
	// QPS/Burst: both controllers' client rate limit for the phase.
	QPS                int     `json:"qps"`
	Burst              int     `json:"burst"`
	Idle               string  `json:"idle"`
	RestartWindow      string  `json:"restartWindow"`
	ImageChangePercent float64 `json:"imageChangePercent"`
	// KubeControllerManagerControllers: its --controllers as the stack starts it.
	KubeControllerManagerControllers string `json:"kubeControllerManagerControllers"`
	// RSS: how the servers' memory was read.
	RSS string     `json:"rss"`
	CRD *CRDMemory `json:"crd,omitempty"`
	// Kruise: what kruise-apiserver adds to hold the same CloneSets, created the same
	// way (no controller acting on them).
	Kruise *ServerMemory          `json:"kruise,omitempty"`
	Sides  []*ctrlbench.ScaleSide `json:"sides"`
	// Order: the workload kinds of the sides in the order they ran (-scale-sides).
	Order []string `json:"order,omitempty"`
	// ControllerRestartedPerSide: each side's controller was restarted just before the
	// side began, so no controller's memory holds the earlier side's pods. Results
	// without it ran both sides on the controllers the phase started.
	ControllerRestartedPerSide bool `json:"controllerRestartedPerSide,omitempty"`
}

// ServerMemory is what the API servers' settled memory was before some objects were
// created and with them.
type ServerMemory struct {
	Objects     int                    `json:"objects"`
	Before      map[string]proc.Steady `json:"before"`
	WithObjects map[string]proc.Steady `json:"withObjects"`
}

// Added is what process's settled RSS grew by from Before.
func (m *ServerMemory) Added(process string) float64 {
	return m.WithObjects[process].RSSMiB - m.Before[process].RSSMiB
}

// AddedHeap is what process's live Go heap grew by from Before.
func (m *ServerMemory) AddedHeap(process string) float64 {
	return m.WithObjects[process].HeapMiB - m.Before[process].HeapMiB
}

// CRDMemory is what kube-apiserver (and its etcd) add to serve the same CloneSets as
// a CRD: settled memory before the CRD, with the CRD and no objects, and with them.
type CRDMemory struct {
	ServerMemory
	// PreInstalled: the CRD existed before (the API phase ran first), so Before
	// already includes it.
	PreInstalled bool                   `json:"preInstalled,omitempty"`
	CRDOnly      map[string]proc.Steady `json:"crdOnly"`
}

func (s *ScaleResults) side(kind string) *ctrlbench.ScaleSide {
	if s == nil {
		return nil
	}
	for _, sd := range s.Sides {
		if sd.Workload == kind {
			return sd
		}
	}
	return nil
}

// compared says which of the side's later steps count in its cost against peer: a
// step counts only when both sides have it and neither side's copy timed out (a
// timed-out step's CPU runs over the whole bound, and would tilt the ratio). With no
// peer (a side's own total in the table), every step the side has counts. The ready step always
// counts: the ratio is only taken when neither side's ready step timed out.
type compared struct{ idle, restart, imageChange bool }

func comparedSteps(sd, peer *ctrlbench.ScaleSide) compared {
	keep := func(get func(*ctrlbench.ScaleSide) *ctrlbench.ScaleStep) bool {
		mine := get(sd)
		if mine == nil {
			return false
		}
		if peer == nil {
			return true
		}
		theirs := get(peer)
		return theirs != nil && !mine.TimedOut && !theirs.TimedOut
	}
	return compared{idle: keep(idleStep), restart: keep(restartStep), imageChange: keep(imageChangeStep)}
}

// idleStep, restartStep, imageChangeStep: the side's step, nil if it did not get there.
func idleStep(s *ctrlbench.ScaleSide) *ctrlbench.ScaleStep {
	if s.ServersIdle == nil {
		return nil
	}
	return &s.Idle
}

func restartStep(s *ctrlbench.ScaleSide) *ctrlbench.ScaleStep {
	if s.Restart == nil {
		return nil
	}
	return &s.Restart.ScaleStep
}

func imageChangeStep(s *ctrlbench.ScaleSide) *ctrlbench.ScaleStep { return s.ImageChange }

// sideCost is the controller's CPU seconds over the side's steps (the restarted
// process counted from its start) and its peak RSS over them; with peer set, only
// over the steps comparedSteps keeps, the same for both sides.
func sideCost(sd, peer *ctrlbench.ScaleSide) (cpu, peak float64) {
	add := func(u proc.Usage) {
		cpu += u.CPUSeconds
		peak = max(peak, u.PeakRSSMiB)
	}
	c := comparedSteps(sd, peer)
	add(sd.Ready.Processes[sd.Controller])
	if c.idle {
		add(sd.Idle.Processes[sd.Controller])
	}
	if c.restart {
		add(proc.Usage{CPUSeconds: sd.Restart.StartupCPUSeconds, PeakRSSMiB: sd.Restart.StartupPeakRSSMiB})
	}
	if c.imageChange {
		add(sd.ImageChange.Processes[sd.Controller])
	}
	return cpu, peak
}

// steps names the steps sideCost counts for sd against peer.
func steps(sd, peer *ctrlbench.ScaleSide) string {
	c := comparedSteps(sd, peer)
	out := []string{"ready"}
	if c.idle {
		out = append(out, "idle")
	}
	if c.restart {
		out = append(out, "restart")
	}
	if c.imageChange {
		out = append(out, "image change")
	}
	return strings.Join(out, " + ")
}

// judgeScale: the targets for 2 000 CloneSets against 2 000 Deployments.
func judgeScale(s *ScaleResults) []Target {
	if s == nil {
		return nil
	}
	var out []Target
	cs, dep := s.side(ctrlbench.ScaleCloneSet), s.side(ctrlbench.ScaleDeployment)
	n := fmt.Sprintf("%d CloneSets", s.Workloads)
	ratio := func(name string, got, base float64, unit string) {
		t := Target{Name: name, Want: "≤ 0.5×"}
		if base <= 0 {
			t.Missing, t.Got = true, "no figure"
		} else {
			r := got / base
			t.Got, t.Met = fmt.Sprintf("%.2f× (%.1f vs %.1f%s)", r, got, base, unit), r <= 0.5
		}
		out = append(out, t)
	}
	if cs != nil && dep != nil && !cs.Ready.TimedOut && !dep.Ready.TimedOut {
		csCPU, csPeak := sideCost(cs, dep)
		depCPU, depPeak := sideCost(dep, cs)
		compared := steps(cs, dep)
		ratio(fmt.Sprintf("%s: kruise-controller peak RSS vs kube-controller-manager's for the Deployments (%s)", n, compared), csPeak, depPeak, " MiB")
		ratio(fmt.Sprintf("%s: kruise-controller CPU seconds vs kube-controller-manager's for the Deployments (%s)", n, compared), csCPU, depCPU, " s")
	} else {
		out = append(out, Target{Name: n + ": controller peak RSS and CPU vs kube-controller-manager's", Want: "≤ 0.5×", Got: "no figure", Missing: true})
	}
	zero := func(name string, ok bool, got int) {
		t := Target{Name: name, Want: "0"}
		if !ok {
			t.Missing, t.Got = true, "no figure"
		} else {
			t.Got, t.Met = fmt.Sprintf("%d", got), got == 0
		}
		out = append(out, t)
	}
	if cs != nil {
		zero(fmt.Sprintf("%s: writes in %s idle", n, s.Idle), cs.ServersIdle != nil, cs.Idle.AllWritesTotal)
		zero(n+": writes of a controller restart (besides the probe)", cs.Restart != nil, restartWrites(cs))
	} else {
		zero(n+": writes idle", false, 0)
		zero(n+": writes of a controller restart", false, 0)
	}
	out = append(out, apiServerMemoryTargets(n, s)...)
	return out
}

// apiServerMemoryTargets compare what kruise-apiserver adds to hold the CloneSets
// (its embedded etcd included) with what kube-apiserver adds to serve them as a CRD
// (the CRD and the objects; its etcd apart), both holding the same objects created the
// same way, with no controller acting on them.
func apiServerMemoryTargets(n string, s *ScaleResults) []Target {
	k, c := s.Kruise, s.CRD
	have := k != nil && c != nil
	t := Target{Name: n + ": RSS kruise-apiserver adds holding them (embedded etcd included) vs what kube-apiserver adds to serve them as a CRD (CRD + objects, its etcd apart)", Want: "≤ 0.5×"}
	if !have || c.Added("kube-apiserver") <= 0 {
		t.Missing, t.Got = true, "no figure"
	} else {
		got, peer := k.Added("kruise-apiserver"), c.Added("kube-apiserver")
		t.Got, t.Met = fmt.Sprintf("%.2f× (%.0f vs %.0f MiB)", got/peer, got, peer), got/peer <= 0.5
	}
	// The same on the live heap after a forced GC: RSS deltas of a Go process move by
	// tens of MiB with no objects added or removed.
	h := Target{Name: n + ": live heap kruise-apiserver adds holding them (embedded etcd included) vs what kube-apiserver adds to serve them as a CRD", Want: "≤ 0.5×"}
	if !have || c.AddedHeap("kube-apiserver") <= 0 || k.WithObjects["kruise-apiserver"].HeapMiB == 0 {
		h.Missing, h.Got = true, "no figure"
	} else {
		got, peer := k.AddedHeap("kruise-apiserver"), c.AddedHeap("kube-apiserver")
		h.Got, h.Met = fmt.Sprintf("%.2f× (%.1f vs %.1f MiB)", got/peer, got, peer), got/peer <= 0.5
	}
	return []Target{t, h}
}

func restartWrites(sd *ctrlbench.ScaleSide) int {
	if sd.Restart == nil {
		return 0
	}
	return sd.Restart.AllWritesTotal
}

// scaleMarkdown renders the scale phase.
func scaleMarkdown(s *ScaleResults, short bool) string {
	if s == nil {
		return ""
	}
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("\n### Scale: %d workloads × %d pods, %d kwok nodes, each side alone\n\n", s.Workloads, s.PodsEach, s.Nodes)
	w("Both controllers at client QPS/burst %d/%d (kruise-controller: one client shared by its controllers; kube-controller-manager: %s, each of its controllers with its own client at that rate). Idle window %s; restart writes counted for %s from the new process's start; image change: %.0f %% of the workloads at once.\n\n",
		s.QPS, s.Burst, s.KubeControllerManagerControllers, s.Idle, s.RestartWindow, s.ImageChangePercent)
	if len(s.Order) > 0 {
		w("Sides in the order they ran: %s", strings.Join(s.Order, ", then "))
		if s.ControllerRestartedPerSide {
			w("; each side's controller restarted just before the side began, so its peak RSS holds only its own side's objects")
		}
		w(".\n\n")
	}
	w("| workload | step | pods | wall s | controller writes | controller writes/pod | all writes | all writes/pod | controller CPU s | controller peak RSS MiB |\n")
	w("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, sd := range s.Sides {
		row := func(name string, st *ctrlbench.ScaleStep, cpu, peak float64) {
			wall := fmt.Sprintf("%.1f", st.Seconds)
			if st.TimedOut {
				wall += " (timed out)"
			}
			w("| %s | %s | %d | %s | %d | %.3f | %d | %.3f | %.1f | %.0f |\n", sd.Workload, name, st.Pods, wall,
				st.ControllerWritesTotal, st.ControllerWritesPerPod, st.AllWritesTotal, st.AllWritesPerPod, cpu, peak)
		}
		u := func(st *ctrlbench.ScaleStep) (float64, float64) {
			p := st.Processes[sd.Controller]
			return p.CPUSeconds, p.PeakRSSMiB
		}
		c, p := u(&sd.Ready)
		row("all ready", &sd.Ready, c, p)
		if d := sd.Drain; d != nil {
			state := ""
			if !d.Drained {
				state = " (still writing)"
			}
			w("| %s | trailing writes before idle%s | | %.1f | %d | | %d | | | |\n", sd.Workload, state, d.Seconds,
				controllerOnly(sd.Workload, d.Writes), d.WritesTotal)
		}
		if sd.ServersIdle != nil {
			c, p = u(&sd.Idle)
			row("idle "+s.Idle, &sd.Idle, c, p)
		}
		if r := sd.Restart; r != nil {
			row("restart (window)", &r.ScaleStep, r.StartupCPUSeconds, r.StartupPeakRSSMiB)
		}
		if st := sd.ImageChange; st != nil {
			c, p = u(st)
			row(fmt.Sprintf("image change, %d workloads", sd.ImageChanged), st, c, p)
		}
		cpu, peak := sideCost(sd, nil)
		w("| %s | **side total** | | | | | | | **%.1f** | **%.0f** |\n", sd.Workload, cpu, peak)
	}
	w("\nController restart (the process stopped, a probe workload in its own namespace scaled by one pod meanwhile, the process started):\n\n")
	w("| workload | process | health endpoint up s | probe done s | writes in the side's namespace | controller writes on the probe | startup CPU s | startup peak RSS MiB |\n|---|---|---|---|---|---|---|---|\n")
	for _, sd := range s.Sides {
		if r := sd.Restart; r != nil {
			w("| %s | %s | %.1f | %.1f | %d | %d (%s) | %.1f | %.0f |\n", sd.Workload, sd.Controller, r.ReadySeconds, r.ActedSeconds,
				r.AllWritesTotal, r.ProbeWritesTotal, formatCounts(r.ProbeWrites), r.StartupCPUSeconds, r.StartupPeakRSSMiB)
		}
	}
	w("\nAPI server memory (%s):\n\n", s.RSS)
	w("| holding | process | RSS before MiB | RSS after MiB | RSS added MiB | live heap before MiB | live heap after MiB | live heap added MiB |\n|---|---|---|---|---|---|---|---|\n")
	row := func(what, p string, before, after proc.Steady) {
		heap := "| – | – | –"
		if before.HeapMiB > 0 && after.HeapMiB > 0 {
			heap = fmt.Sprintf("| %.1f | %.1f | %.1f", before.HeapMiB, after.HeapMiB, after.HeapMiB-before.HeapMiB)
		}
		w("| %s | %s | %.0f | %.0f | %.0f %s |\n", what, p, before.RSSMiB, after.RSSMiB, after.RSSMiB-before.RSSMiB, heap)
	}
	if c := s.CRD; c != nil {
		for _, p := range []string{"kube-apiserver", "etcd"} {
			row(fmt.Sprintf("%d CloneSets as a CRD (CRD + objects)", c.Objects), p, c.Before[p], c.WithObjects[p])
			row(fmt.Sprintf("%d CloneSets as a CRD (objects only)", c.Objects), p, c.CRDOnly[p], c.WithObjects[p])
		}
	}
	if k := s.Kruise; k != nil {
		row(fmt.Sprintf("%d CloneSets, the same objects, no controller (embedded etcd included)", k.Objects), "kruise-apiserver", k.Before["kruise-apiserver"], k.WithObjects["kruise-apiserver"])
	}
	for _, sd := range s.Sides {
		if sd.ServersIdle == nil {
			continue
		}
		for _, p := range []string{"kruise-apiserver", "kube-apiserver", "etcd"} {
			row(fmt.Sprintf("%d %ss and their %d pods, after the idle window", sd.Workloads, sd.Workload, sd.Workloads*sd.PodsEach), p, sd.ServersBefore[p], sd.ServersIdle[p])
		}
	}
	if !short {
		w("\nController writes by verb and resource (events left out, counted apart):\n\n")
		for _, sd := range s.Sides {
			steps := []struct {
				name string
				st   *ctrlbench.ScaleStep
			}{{"all ready", &sd.Ready}, {"idle", &sd.Idle}}
			if sd.Restart != nil {
				steps = append(steps, struct {
					name string
					st   *ctrlbench.ScaleStep
				}{"restart", &sd.Restart.ScaleStep})
			}
			if sd.ImageChange != nil {
				steps = append(steps, struct {
					name string
					st   *ctrlbench.ScaleStep
				}{"image change", sd.ImageChange})
			}
			for _, x := range steps {
				var clients []string
				for _, c := range sortedKeys(x.st.AllWrites) {
					clients = append(clients, fmt.Sprintf("%s %d", c, x.st.AllWrites.Total(c)))
				}
				all := strings.Join(clients, ", ")
				if all == "" {
					all = "none"
				}
				w("- %s, %s: %s; events %d. All clients: %s\n", sd.Workload, x.name, formatCounts(x.st.ControllerWrites), x.st.ControllerEvents, all)
			}
		}
		for _, sd := range s.Sides {
			for _, e := range sd.Errors {
				w("- %s error: %s\n", sd.Workload, e)
			}
		}
	}
	return b.String()
}

// controllerOnly: the side's controller's writes, events included.
func controllerOnly(kind string, c audit.Counts) int {
	return c.Total(ctrlbench.ScaleControllerClients(kind)...)
}
