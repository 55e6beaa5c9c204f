package nodebench

import (
	"strings"
	"testing"
)

// TestTable: a finished rollout's row carries its figures; one that did not finish says
// why instead of printing zeros as results.
func TestTable(t *testing.T) {
	rs := &Results{Summary: []Rollout{
		{Workload: CloneSetInPlace, Pods: 50, WallSeconds: 7.4, P50Seconds: 4.71, P99Seconds: 7.39, UIDsKept: 50, IPsKept: 50,
			ControllerWritesPerPod: 2.58, AllWritesPerPod: 4.5, CPUSeconds: map[string]float64{"kubelet": 1.52, "containerd": 1.97, "containerd shims": 4.15}},
		{Workload: CloneSetInPlace, PreDownload: true, Pods: 50, Error: "rollout not done after 10m0s"},
	}}
	got := Table(rs)
	for _, want := range []string{
		"| CloneSet InPlaceIfPossible | 50 | 7.4 | 4.71 | 7.39 | 50/50 | 50/50 | 2.58 | 4.50 | 1.5 | 2.0 (4.2) |",
		"| CloneSet InPlaceIfPossible + pre-download | 50 | did not finish: rollout not done after 10m0s |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
}

func TestWritesLine(t *testing.T) {
	got := writesLine(map[string]map[string]int{
		"kruise-controller":        {"patch pods": 50, "update clonesets/status": 78},
		"system:node:kn-test-node": {"patch pods/status": 95},
	})
	want := "kruise-controller 128 (patch pods 50, update clonesets/status 78); system:node:kn-test-node 95 (patch pods/status 95)"
	if got != want {
		t.Errorf("%s\nwant %s", got, want)
	}
	if writesLine(nil) != "none" {
		t.Errorf("no writes: %q", writesLine(nil))
	}
}
