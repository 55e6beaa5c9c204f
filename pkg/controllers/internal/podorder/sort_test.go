package podorder

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// healthy is a scheduled, running, ready and available pod.
func healthy(name string, labels map[string]string) Candidate {
	return Candidate{
		Name: name, Labels: labels, Available: true, Ready: true, ReadyTime: t0,
		Phase: corev1.PodRunning, Node: "node-" + name, CreationTime: t0.Add(-time.Hour),
	}
}

func candNames(cs []Candidate) string {
	var s []string
	for _, c := range cs {
		s = append(s, c.Name)
	}
	return strings.Join(s, " ")
}

// prioritized returns copies of pods with their Priority under strategy, as
// CandidateFromPod sets it.
func prioritized(pods []Candidate, strategy *pub.UpdatePriorityStrategy) []Candidate {
	out := make([]Candidate, len(pods))
	for i, c := range pods {
		c.Priority = Priority(strategy, c.Labels)
		out[i] = c
	}
	return out
}

func TestSortForUpdate(t *testing.T) {
	unavailable := func(c Candidate) Candidate { c.Available = false; return c }
	notReady := func(c Candidate) Candidate { c.Available, c.Ready, c.ReadyTime = false, false, time.Time{}; return c }
	preparing := func(c Candidate) Candidate { c.PreparingUpdate = true; return c }
	prio := orders("some-priority")
	rank := func(v string) map[string]string { return map[string]string{"some-priority": v} }

	var tenPods []Candidate
	for i, l := range []string{"", "", "M", "M", "", "", "", "M", "", ""} {
		labels := map[string]string{}
		if l == "M" {
			labels["foo"] = "bar"
		}
		tenPods = append(tenPods, healthy(fmt.Sprintf("p%d", i), labels))
	}

	tests := []struct {
		name     string
		pods     []Candidate
		strategy *pub.UpdatePriorityStrategy
		scatter  []pub.UpdateScatterTerm
		want     string
	}{
		{name: "by name when all equal", pods: []Candidate{healthy("c", nil), healthy("a", nil), healthy("b", nil)}, want: "a b c"},
		{
			name: "unavailable first, not ready first among them",
			pods: []Candidate{healthy("a", nil), unavailable(healthy("b", nil)), notReady(healthy("c", nil)), healthy("d", nil)},
			want: "c b a d",
		},
		{
			name: "PreparingUpdate before everything",
			pods: []Candidate{notReady(healthy("a", nil)), preparing(healthy("b", nil)), healthy("c", nil)},
			want: "b a c",
		},
		{
			name:     "doc: higher some-priority first",
			pods:     []Candidate{healthy("a", rank("1")), healthy("b", rank("sts-10")), healthy("c", nil), healthy("d", rank("5"))},
			strategy: prio,
			want:     "b d a c",
		},
		{
			name:     "doc: weight 50 for key1=val1 first",
			pods:     []Candidate{healthy("a", nil), healthy("b", map[string]string{"key1": "val1"}), healthy("c", map[string]string{"key1": "x"})},
			strategy: weights(weight(50, map[string]string{"key1": "val1"})),
			want:     "b a c",
		},
		{
			name:     "unavailable low priority before available high priority",
			pods:     []Candidate{healthy("a", rank("9")), unavailable(healthy("b", rank("1")))},
			strategy: prio,
			want:     "b a",
		},
		{
			name:    "doc: scatter foo=bar, 3 of 10 are 1st, 6th and 10th",
			pods:    tenPods,
			scatter: fooBar,
			want:    "p2 p0 p1 p4 p5 p3 p6 p8 p9 p7",
		},
		{
			// Scatter spreads within pods of equal priority only: the high-priority
			// group stays in front.
			name: "scatter stays within a priority",
			pods: []Candidate{
				healthy("h0", map[string]string{"some-priority": "2", "foo": "bar"}), healthy("h1", map[string]string{"some-priority": "2", "foo": "bar"}),
				healthy("h2", rank("2")), healthy("h3", rank("2")),
				healthy("l0", map[string]string{"foo": "bar"}), healthy("l1", map[string]string{"foo": "bar"}), healthy("l2", nil), healthy("l3", nil),
			},
			strategy: prio,
			scatter:  fooBar,
			want:     "h0 h2 h3 h1 l0 l2 l3 l1",
		},
		{name: "empty", pods: nil, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := candNames(tt.pods)
			got := SortForUpdate(prioritized(tt.pods, tt.strategy), tt.scatter)
			if candNames(got) != tt.want {
				t.Errorf("SortForUpdate = %q, want %q", candNames(got), tt.want)
			}
			if candNames(tt.pods) != before {
				t.Errorf("input modified: %q", candNames(tt.pods))
			}
		})
	}
}

// TestSortForDelete checks each rule on a pair: "first" must come before "second"
// whichever order they are given in.
func TestSortForDelete(t *testing.T) {
	base := func(name string) Candidate { return healthy(name, nil) }
	with := func(name string, f func(*Candidate)) Candidate { c := base(name); f(&c); return c }
	prio := orders("some-priority")

	tests := []struct {
		name          string
		first, second Candidate
		strategy      *pub.UpdatePriorityStrategy
	}{
		{"PreparingDelete before everything",
			with("a", func(c *Candidate) { c.PreparingDelete = true }), with("b", func(c *Candidate) { c.Node, c.Available, c.Ready = "", false, false }), nil},
		{"unscheduled before scheduled",
			with("a", func(c *Candidate) { c.Node = ""; c.Phase = corev1.PodRunning }), base("b"), nil},
		{"pending before unknown",
			with("a", func(c *Candidate) { c.Phase = corev1.PodPending }), with("b", func(c *Candidate) { c.Phase = corev1.PodUnknown }), nil},
		{"unknown before running",
			with("a", func(c *Candidate) { c.Phase = corev1.PodUnknown }), base("b"), nil},
		{"failed counts as pending",
			with("a", func(c *Candidate) { c.Phase = corev1.PodFailed }), with("b", func(c *Candidate) { c.Phase = corev1.PodUnknown }), nil},
		{"unavailable before available",
			with("a", func(c *Candidate) { c.Available = false }), base("b"), nil},
		{"not ready before ready",
			with("a", func(c *Candidate) { c.Available, c.Ready = false, false }), with("b", func(c *Candidate) { c.Available = false }), nil},
		{"lower deletion cost first",
			with("a", func(c *Candidate) { c.DeletionCost = -5 }), base("b"), nil},
		{"deletion cost beats priority",
			with("a", func(c *Candidate) { c.Labels = map[string]string{"some-priority": "9"} }),
			with("b", func(c *Candidate) { c.DeletionCost = 1 }), prio},
		{"lower priority first",
			with("a", func(c *Candidate) { c.Labels = map[string]string{"some-priority": "1"} }),
			with("b", func(c *Candidate) { c.Labels = map[string]string{"some-priority": "2"} }), prio},
		{"no priority label before a priority label",
			base("a"), with("b", func(c *Candidate) { c.Labels = map[string]string{"some-priority": "0"} }), prio},
		{"priority beats readiness time",
			with("a", func(c *Candidate) { c.Labels = map[string]string{"some-priority": "1"} }),
			with("b", func(c *Candidate) {
				c.Labels = map[string]string{"some-priority": "2"}
				c.ReadyTime = t0.Add(time.Hour)
			}), prio},
		{"ready for less time first",
			with("a", func(c *Candidate) { c.ReadyTime = t0.Add(time.Minute) }), base("b"), nil},
		{"unknown ready time first",
			with("a", func(c *Candidate) { c.ReadyTime = time.Time{} }), with("b", func(c *Candidate) { c.ReadyTime = t0.Add(time.Hour) }), nil},
		{"more restarts first",
			with("a", func(c *Candidate) { c.Restarts = 3 }), with("b", func(c *Candidate) { c.Restarts = 1; c.SidecarRestarts = 9 }), nil},
		{"more sidecar restarts first",
			with("a", func(c *Candidate) { c.SidecarRestarts = 2 }), base("b"), nil},
		{"restarts beat creation time",
			with("a", func(c *Candidate) { c.Restarts = 1 }), with("b", func(c *Candidate) { c.CreationTime = t0 }), nil},
		{"newer first",
			with("a", func(c *Candidate) { c.CreationTime = t0 }), base("b"), nil},
		{"unknown creation time first",
			with("a", func(c *Candidate) { c.CreationTime = time.Time{} }), with("b", func(c *Candidate) { c.CreationTime = t0 }), nil},
		{"by name at last", base("a"), base("b"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, in := range [][]Candidate{{tt.first, tt.second}, {tt.second, tt.first}} {
				got := SortForDelete(prioritized(in, tt.strategy))
				if got[0].Name != tt.first.Name {
					t.Errorf("SortForDelete(%s) = %s, want %s first", candNames(in), candNames(got), tt.first.Name)
				}
			}
		})
	}
}

func TestSortForDeleteColocated(t *testing.T) {
	on := func(name, node string) Candidate { c := healthy(name, nil); c.Node = node; return c }
	pods := []Candidate{on("a", "n1"), on("b", "n2"), on("c", "n1"), on("d", "n3"), on("e", "n1"), on("f", "n2")}
	if got := candNames(SortForDelete(pods)); got != "a c e b f d" {
		t.Errorf("SortForDelete = %q, want pods on the fullest node first", got)
	}
	if got := candNames(pods); got != "a b c d e f" {
		t.Errorf("input modified: %q", got)
	}
}
