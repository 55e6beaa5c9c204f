package podprobe

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// A state moves only after a run of threshold equal results, as kubelet's prober.
func TestThreshold(t *testing.T) {
	tests := []struct {
		name             string
		success, failure int32
		results          []bool
		want             []v1alpha1.ProbeState
	}{
		{"defaults: one success, three failures", 1, 3,
			[]bool{true, false, false, false, true},
			[]v1alpha1.ProbeState{"Succeeded", "", "", "Failed", "Succeeded"}},
		{"two successes needed, a failure breaks the run", 2, 1,
			[]bool{true, false, true, true},
			[]v1alpha1.ProbeState{"", "Failed", "", "Succeeded"}},
		{"unset thresholds count as 1", 0, 0,
			[]bool{false, true},
			[]v1alpha1.ProbeState{"Failed", "Succeeded"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			th := threshold{success: tc.success, failure: tc.failure}
			var got []v1alpha1.ProbeState
			for _, r := range tc.results {
				got = append(got, th.observe(r))
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("states (-want +got):\n%s", d)
			}
		})
	}
}

// The status lists results in spec order, leaves out probes without a result and
// pods without any, and seeding from it gives the same results back (a restarted
// daemon writes nothing).
func TestStatusOfAndSeed(t *testing.T) {
	at := metav1.Now()
	npp := &v1alpha1.NodePodProbe{Spec: v1alpha1.NodePodProbeSpec{PodProbes: []v1alpha1.PodProbe{
		{Name: "a", Namespace: "ns", UID: "ua", Probes: []v1alpha1.ContainerProbe{{Name: "m#Idle"}, {Name: "m#Busy"}}},
		{Name: "b", Namespace: "ns", UID: "ub", Probes: []v1alpha1.ContainerProbe{{Name: "m#Idle"}}},
	}}}
	results := map[key]result{
		{"ua", "m#Idle"}:   {state: v1alpha1.ProbeFailed, message: "exit 1", at: at},
		{"gone", "m#Idle"}: {state: v1alpha1.ProbeSucceeded, at: at},
	}
	got := statusOf(npp.Spec, results)
	want := v1alpha1.NodePodProbeStatus{PodProbeStatuses: []v1alpha1.PodProbeStatus{{Name: "a", Namespace: "ns", UID: "ua",
		ProbeStates: []v1alpha1.ContainerProbeState{{Name: "m#Idle", State: v1alpha1.ProbeFailed, Message: "exit 1", LastProbeTime: at, LastTransitionTime: at}}}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("status (-want +got):\n%s", d)
	}
	npp.Status = got
	if again := statusOf(npp.Spec, seed(npp)); !cmp.Equal(again, got) {
		t.Errorf("seeded status differs:\n%s", cmp.Diff(got, again))
	}
}
