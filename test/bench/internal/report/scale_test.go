package report

import (
	"strings"
	"testing"

	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
	"github.com/kruise-native/kruise-native/test/bench/internal/proc"
)

func scaleSide(kind string, peak, cpu float64, idleWrites, restartWrites int) *ctrlbench.ScaleSide {
	ctl := ctrlbench.ScaleController(kind)
	use := map[string]proc.Usage{ctl: {CPUSeconds: cpu, PeakRSSMiB: peak}}
	return &ctrlbench.ScaleSide{
		Workload: kind, Controller: ctl, Workloads: 2000, PodsEach: 10,
		Ready:       ctrlbench.ScaleStep{Processes: use},
		Idle:        ctrlbench.ScaleStep{AllWritesTotal: idleWrites},
		Restart:     &ctrlbench.ScaleRestart{ScaleStep: ctrlbench.ScaleStep{AllWritesTotal: restartWrites}},
		ServersIdle: map[string]proc.Steady{"kruise-apiserver": {RSSMiB: 40}},
	}
}

func TestJudgeScale(t *testing.T) {
	crd := &CRDMemory{ServerMemory: ServerMemory{
		Before:      map[string]proc.Steady{"kube-apiserver": {RSSMiB: 300}},
		WithObjects: map[string]proc.Steady{"kube-apiserver": {RSSMiB: 400}},
	}}
	// kruise-apiserver adds 40 MiB (0.4× of the CRD's 100), or 60 (0.6×).
	small := &ServerMemory{
		Before:      map[string]proc.Steady{"kruise-apiserver": {RSSMiB: 150}},
		WithObjects: map[string]proc.Steady{"kruise-apiserver": {RSSMiB: 190}},
	}
	large := &ServerMemory{
		Before:      map[string]proc.Steady{"kruise-apiserver": {RSSMiB: 150}},
		WithObjects: map[string]proc.Steady{"kruise-apiserver": {RSSMiB: 210}},
	}
	for _, tc := range []struct {
		name string
		res  *ScaleResults
		// want: verdict per target name fragment ("met", "missed", "no figure")
		want map[string]string
	}{
		{
			name: "all met",
			res: &ScaleResults{Workloads: 2000, Idle: "5m0s", CRD: crd, Kruise: small, Sides: []*ctrlbench.ScaleSide{
				scaleSide(ctrlbench.ScaleDeployment, 400, 100, 3, 5), scaleSide(ctrlbench.ScaleCloneSet, 150, 40, 0, 0)}},
			want: map[string]string{"peak RSS": "met", "CPU seconds": "met", "idle": "met", "restart": "met", "RSS kruise-apiserver adds": "met"},
		},
		{
			name: "writes and ratios missed",
			res: &ScaleResults{Workloads: 2000, Idle: "5m0s", CRD: crd, Kruise: large, Sides: []*ctrlbench.ScaleSide{
				scaleSide(ctrlbench.ScaleDeployment, 200, 100, 0, 0), scaleSide(ctrlbench.ScaleCloneSet, 150, 60, 2, 1)}},
			want: map[string]string{"peak RSS": "missed", "CPU seconds": "missed", "idle": "missed", "restart": "missed", "RSS kruise-apiserver adds": "missed"},
		},
		{
			name: "no Deployment side, no CRD",
			res: &ScaleResults{Workloads: 2000, Idle: "5m0s", Sides: []*ctrlbench.ScaleSide{
				scaleSide(ctrlbench.ScaleCloneSet, 150, 60, 0, 0)}},
			want: map[string]string{"peak RSS": "no figure", "idle": "met", "RSS kruise-apiserver adds": "no figure"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := judgeScale(tc.res)
			for frag, want := range tc.want {
				found := false
				for _, tg := range got {
					if !strings.Contains(tg.Name, frag) {
						continue
					}
					found = true
					verdict := "missed"
					if tg.Missing {
						verdict = "no figure"
					} else if tg.Met {
						verdict = "met"
					}
					if verdict != want {
						t.Errorf("%q: %s (got %s), want %s", tg.Name, verdict, tg.Got, want)
					}
				}
				if !found {
					t.Errorf("no target named like %q in %+v", frag, got)
				}
			}
		})
	}
}

// A later step counts in the controllers' cost only when both sides have it and
// neither side's copy timed out; the ready step always counts.
func TestSideCostComparedSteps(t *testing.T) {
	use := func(ctl string, cpu, peak float64) map[string]proc.Usage {
		return map[string]proc.Usage{ctl: {CPUSeconds: cpu, PeakRSSMiB: peak}}
	}
	// side: ready 10 s / 100 MiB, idle 1 s / 110 MiB, restart 2 s / 120 MiB, image
	// change 100 s / 300 MiB; each of the later steps can be missing or timed out.
	side := func(kind, restart, image string) *ctrlbench.ScaleSide {
		ctl := ctrlbench.ScaleController(kind)
		sd := &ctrlbench.ScaleSide{
			Workload: kind, Controller: ctl,
			Ready:       ctrlbench.ScaleStep{Processes: use(ctl, 10, 100)},
			Idle:        ctrlbench.ScaleStep{Processes: use(ctl, 1, 110)},
			ServersIdle: map[string]proc.Steady{},
		}
		if restart != "missing" {
			sd.Restart = &ctrlbench.ScaleRestart{ScaleStep: ctrlbench.ScaleStep{TimedOut: restart == "timed out"},
				StartupCPUSeconds: 2, StartupPeakRSSMiB: 120}
		}
		if image != "missing" {
			sd.ImageChange = &ctrlbench.ScaleStep{TimedOut: image == "timed out", Processes: use(ctl, 100, 300)}
		}
		return sd
	}
	for _, tc := range []struct {
		name                    string
		depRestart, depImage    string
		csRestart, csImage      string
		wantSteps               string
		wantCPU, wantPeak       float64
		wantOwnCPU, wantOwnPeak float64 // the CloneSet side's own total (no peer)
	}{
		{name: "all steps on both sides", wantSteps: "ready + idle + restart + image change", wantCPU: 113, wantPeak: 300, wantOwnCPU: 113, wantOwnPeak: 300},
		{name: "image change timed out on the Deployment side", depImage: "timed out",
			wantSteps: "ready + idle + restart", wantCPU: 13, wantPeak: 120, wantOwnCPU: 113, wantOwnPeak: 300},
		{name: "image change timed out on the CloneSet side", csImage: "timed out",
			wantSteps: "ready + idle + restart", wantCPU: 13, wantPeak: 120, wantOwnCPU: 113, wantOwnPeak: 300},
		{name: "restart timed out on one side, image change missing on the other", csRestart: "timed out", depImage: "missing",
			wantSteps: "ready + idle", wantCPU: 11, wantPeak: 110, wantOwnCPU: 113, wantOwnPeak: 300},
		{name: "restart missing on the CloneSet side", csRestart: "missing",
			wantSteps: "ready + idle + image change", wantCPU: 111, wantPeak: 300, wantOwnCPU: 111, wantOwnPeak: 300},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dep := side(ctrlbench.ScaleDeployment, tc.depRestart, tc.depImage)
			cs := side(ctrlbench.ScaleCloneSet, tc.csRestart, tc.csImage)
			for _, p := range []struct {
				name     string
				sd, peer *ctrlbench.ScaleSide
			}{{"CloneSet", cs, dep}, {"Deployment", dep, cs}} {
				if got := steps(p.sd, p.peer); got != tc.wantSteps {
					t.Errorf("%s side: steps %q, want %q", p.name, got, tc.wantSteps)
				}
				if cpu, peak := sideCost(p.sd, p.peer); cpu != tc.wantCPU || peak != tc.wantPeak {
					t.Errorf("%s side: cost %g s, %g MiB; want %g s, %g MiB", p.name, cpu, peak, tc.wantCPU, tc.wantPeak)
				}
			}
			if cpu, peak := sideCost(cs, nil); cpu != tc.wantOwnCPU || peak != tc.wantOwnPeak {
				t.Errorf("CloneSet side's own total: %g s, %g MiB; want %g s, %g MiB", cpu, peak, tc.wantOwnCPU, tc.wantOwnPeak)
			}
			var names []string
			for _, tg := range judgeScale(&ScaleResults{Workloads: 2000, Sides: []*ctrlbench.ScaleSide{dep, cs}}) {
				if strings.Contains(tg.Name, "peak RSS vs") || strings.Contains(tg.Name, "CPU seconds vs") {
					names = append(names, tg.Name)
				}
			}
			if len(names) != 2 {
				t.Fatalf("want the RSS and CPU ratio targets, got %q", names)
			}
			for _, n := range names {
				if !strings.Contains(n, "("+tc.wantSteps+")") {
					t.Errorf("target %q does not name the steps compared (%s)", n, tc.wantSteps)
				}
			}
		})
	}
}

// The scale section says in which order the sides ran, and whether each side's
// controller started fresh (results from before the restart do not claim it).
func TestScaleMarkdownOrder(t *testing.T) {
	sides := []*ctrlbench.ScaleSide{scaleSide(ctrlbench.ScaleCloneSet, 150, 40, 0, 0), scaleSide(ctrlbench.ScaleDeployment, 400, 100, 0, 0)}
	order := []string{ctrlbench.ScaleCloneSet, ctrlbench.ScaleDeployment}
	fresh := "each side's controller restarted just before the side began"
	for _, tc := range []struct {
		name      string
		res       *ScaleResults
		want, not []string
	}{
		{name: "CloneSets first, restarted", res: &ScaleResults{Sides: sides, Order: order, ControllerRestartedPerSide: true},
			want: []string{"Sides in the order they ran: CloneSet, then Deployment; " + fresh}},
		{name: "order without the restart", res: &ScaleResults{Sides: sides, Order: order},
			want: []string{"Sides in the order they ran: CloneSet, then Deployment."}, not: []string{fresh}},
		{name: "older results: no order recorded", res: &ScaleResults{Sides: sides}, not: []string{"in the order they ran"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := scaleMarkdown(tc.res, true)
			for _, w := range tc.want {
				if !strings.Contains(md, w) {
					t.Errorf("no %q in:\n%s", w, md)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(md, n) {
					t.Errorf("%q in:\n%s", n, md)
				}
			}
		})
	}
}
