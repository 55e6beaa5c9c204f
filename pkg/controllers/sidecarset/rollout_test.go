package sidecarset

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
)

func names(ps []podStatus) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.pod.Name)
	}
	return out
}

func TestPlanRollout(t *testing.T) {
	v1 := newSidecarSet("log:v1", false)
	run := func(t *testing.T, ss *apps.SidecarSet, podList []podStatus) plan {
		t.Helper()
		return planRollout(ss, podList)
	}
	statuses := func(t *testing.T, ss *apps.SidecarSet, n int, canary labels.Selector) []podStatus {
		tg := mustTarget(t, ss)
		var out []podStatus
		for _, p := range pods(t, n, v1) {
			out = append(out, classify(p, tg, canary))
		}
		return out
	}

	t.Run("maxUnavailable 1 upgrades one pod at a time", func(t *testing.T) {
		v2 := newSidecarSet("log:v2", false)
		p := run(t, v2, statuses(t, v2, 4, nil))
		if len(p.upgrade) != 1 || p.upgrade[0].pod.Name != "web-0" {
			t.Fatalf("upgrade %v, want web-0 only", names(p.upgrade))
		}
		if len(p.blocked) != 1 || !strings.Contains(p.blocked[0], "maxUnavailable 1") || !strings.Contains(p.blocked[0], "3 pod(s) wait") {
			t.Errorf("blocked = %q", p.blocked)
		}
	})
	t.Run("a pod mid-upgrade holds the slot", func(t *testing.T) {
		v2 := newSidecarSet("log:v2", false)
		st := statuses(t, v2, 3, nil)
		st[0].updated, st[0].consistent = true, false
		if p := run(t, v2, st); len(p.upgrade) != 0 {
			t.Errorf("upgrade %v while web-0 upgrades, want none", names(p.upgrade))
		}
	})
	t.Run("unready pods go first and cost no slot", func(t *testing.T) {
		v2 := newSidecarSet("log:v2", false)
		st := statuses(t, v2, 4, nil)
		st[2].ready, st[3].ready = false, false
		// two unavailable already, maxUnavailable 1: only the unready ones may go
		if p := run(t, v2, st); len(p.upgrade) != 2 || names(p.upgrade)[0] != "web-2" || names(p.upgrade)[1] != "web-3" {
			t.Errorf("upgrade %v, want web-2 and web-3", names(p.upgrade))
		}
	})
	t.Run("maxUnavailable percent rounds up", func(t *testing.T) {
		v2 := newSidecarSet("log:v2", false)
		v2.Spec.UpdateStrategy.MaxUnavailable = new(intstr.FromString("50%"))
		if p := run(t, v2, statuses(t, v2, 3, nil)); len(p.upgrade) != 2 {
			t.Errorf("upgrade %v, want 2 of 3 (50%% rounded up)", names(p.upgrade))
		}
	})
	t.Run("maxUnavailable 100% upgrades at most the burst a sync", func(t *testing.T) {
		v2 := newSidecarSet("log:v2", false)
		v2.Spec.UpdateStrategy.MaxUnavailable = new(intstr.FromString("100%"))
		if p := run(t, v2, statuses(t, v2, batch.Burst+30, nil)); len(p.upgrade) != batch.Burst {
			t.Errorf("upgrade %d pods, want %d", len(p.upgrade), batch.Burst)
		}
	})
	t.Run("partition keeps pods on the old sidecars", func(t *testing.T) {
		v2 := newSidecarSet("log:v2", false)
		v2.Spec.UpdateStrategy.MaxUnavailable = new(intstr.FromString("100%"))
		v2.Spec.UpdateStrategy.Partition = new(intstr.FromInt32(3))
		st := statuses(t, v2, 5, nil)
		p := run(t, v2, st)
		if len(p.upgrade) != 2 || len(p.blocked) != 1 || !strings.Contains(p.blocked[0], "partition 3 keeps the remaining 3") {
			t.Fatalf("upgrade %v blocked %q, want 5-3=2 and 3 held by the partition", names(p.upgrade), p.blocked)
		}
		st[0].updated, st[1].updated = true, true
		p = run(t, v2, st)
		if len(p.upgrade) != 0 || len(p.blocked) != 1 || !strings.Contains(p.blocked[0], "partition 3") {
			t.Errorf("after 2 updated: upgrade %v blocked %q, want held by partition 3", names(p.upgrade), p.blocked)
		}
	})
	t.Run("canary selector upgrades only labelled pods", func(t *testing.T) {
		v2 := newSidecarSet("log:v2", false)
		v2.Spec.UpdateStrategy.MaxUnavailable = new(intstr.FromString("100%"))
		canary := labels.SelectorFromSet(labels.Set{"canary.release": "true"})
		tg := mustTarget(t, v2)
		var st []podStatus
		for i, p := range pods(t, 4, v1) {
			if i%2 == 1 {
				p.Labels["canary.release"] = "true"
			}
			st = append(st, classify(p, tg, canary))
		}
		if p := run(t, v2, st); strings.Join(names(p.upgrade), ",") != "web-1,web-3" || len(p.blocked) != 0 {
			t.Errorf("upgrade %v blocked %q, want web-1 and web-3", names(p.upgrade), p.blocked)
		}
	})
	t.Run("paused and NotUpdate upgrade nothing and say why", func(t *testing.T) {
		for _, mutate := range []func(*apps.SidecarSet){
			func(ss *apps.SidecarSet) { ss.Spec.UpdateStrategy.Paused = true },
			func(ss *apps.SidecarSet) { ss.Spec.UpdateStrategy.Type = apps.NotUpdateSidecarSetStrategyType },
		} {
			v2 := newSidecarSet("log:v2", false)
			mutate(v2)
			if p := run(t, v2, statuses(t, v2, 2, nil)); len(p.upgrade) != 0 || len(p.blocked) != 1 {
				t.Errorf("upgrade %v blocked %q", names(p.upgrade), p.blocked)
			}
		}
	})
	t.Run("pods that need more than an image change are named", func(t *testing.T) {
		v2 := newSidecarSet("log:v1", false)
		v2.Spec.Containers[0].Env = nil
		v2.Spec.Containers[0].Args = []string{"--new"}
		p := run(t, v2, statuses(t, v2, 2, nil))
		if len(p.upgrade) != 0 || len(p.blocked) != 1 || !strings.Contains(p.blocked[0], "ns/web-0, ns/web-1") {
			t.Errorf("upgrade %v blocked %q", names(p.upgrade), p.blocked)
		}
	})
	t.Run("nothing to do", func(t *testing.T) {
		if p := run(t, v1, statuses(t, v1, 2, nil)); len(p.upgrade) != 0 || len(p.blocked) != 0 {
			t.Errorf("upgrade %v blocked %q", names(p.upgrade), p.blocked)
		}
	})
}
