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
	crd := &CRDMemory{
		Before:      map[string]proc.Steady{"kube-apiserver": {RSSMiB: 300}},
		WithObjects: map[string]proc.Steady{"kube-apiserver": {RSSMiB: 400}},
	}
	for _, tc := range []struct {
		name string
		res  *ScaleResults
		// want: verdict per target name fragment ("met", "missed", "no figure")
		want map[string]string
	}{
		{
			name: "all met",
			res: &ScaleResults{Workloads: 2000, Idle: "5m0s", CRD: crd, Sides: []*ctrlbench.ScaleSide{
				scaleSide(ctrlbench.ScaleDeployment, 400, 100, 3, 5), scaleSide(ctrlbench.ScaleCloneSet, 150, 40, 0, 0)}},
			want: map[string]string{"peak RSS": "met", "CPU seconds": "met", "idle": "met", "restart": "met", "kruise-apiserver RSS": "met"},
		},
		{
			name: "writes and ratios missed",
			res: &ScaleResults{Workloads: 2000, Idle: "5m0s", CRD: crd, Sides: []*ctrlbench.ScaleSide{
				scaleSide(ctrlbench.ScaleDeployment, 200, 100, 0, 0), scaleSide(ctrlbench.ScaleCloneSet, 150, 60, 2, 1)}},
			want: map[string]string{"peak RSS": "missed", "CPU seconds": "missed", "idle": "missed", "restart": "missed", "kruise-apiserver RSS": "met"},
		},
		{
			name: "no Deployment side, no CRD",
			res: &ScaleResults{Workloads: 2000, Idle: "5m0s", Sides: []*ctrlbench.ScaleSide{
				scaleSide(ctrlbench.ScaleCloneSet, 150, 60, 0, 0)}},
			want: map[string]string{"peak RSS": "no figure", "idle": "met", "kruise-apiserver RSS": "no figure"},
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
