package cloneset

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

func claimPod(id string, mutate ...func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "cs-" + id, Labels: map[string]string{pub.CloneSetInstanceIDKey: id}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning}}
	for _, m := range mutate {
		m(p)
	}
	return p
}

func claimOf(id string, deleting bool) *corev1.PersistentVolumeClaim {
	c := &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: "data-cs-" + id, Labels: map[string]string{pub.CloneSetInstanceIDKey: id}}}
	if deleting {
		c.DeletionTimestamp = &metav1.Time{}
	}
	return c
}

func terminating(p *corev1.Pod) { p.DeletionTimestamp = &metav1.Time{} }
func failed(p *corev1.Pod)      { p.Status.Phase = corev1.PodFailed }

// What PVC reuse, on and off, asks of a sync given the pods and claims it sees.
func TestPlanClaims(t *testing.T) {
	cases := []struct {
		name   string
		reuse  bool
		pods   []*corev1.Pod
		claims []*corev1.PersistentVolumeClaim
		want   claimPlan
	}{
		{name: "every claim used by its pod: nothing to do", reuse: true,
			pods:   []*corev1.Pod{claimPod("a"), claimPod("b")},
			claims: []*corev1.PersistentVolumeClaim{claimOf("a", false), claimOf("b", false)}},
		{name: "reuse: the claim of a pod deleted by hand is free", reuse: true,
			pods:   []*corev1.Pod{claimPod("a")},
			claims: []*corev1.PersistentVolumeClaim{claimOf("a", false), claimOf("b", false)},
			want:   claimPlan{Free: []string{"b"}}},
		{name: "reuse: a pod still terminating holds its id: one creation waits", reuse: true,
			pods:   []*corev1.Pod{claimPod("a"), claimPod("b", terminating)},
			claims: []*corev1.PersistentVolumeClaim{claimOf("a", false), claimOf("b", false)},
			want:   claimPlan{Pending: 1}},
		{name: "reuse: a failed pod is deleted (not its claim) and its id waits for it", reuse: true,
			pods:   []*corev1.Pod{claimPod("a"), claimPod("b", failed)},
			claims: []*corev1.PersistentVolumeClaim{claimOf("a", false), claimOf("b", false)},
			want:   claimPlan{Pending: 1, Finished: []string{"cs-b"}}},
		{name: "reuse: a claim being deleted (with its pod, by the controller) is no one's to take", reuse: true,
			pods:   []*corev1.Pod{claimPod("a"), claimPod("b", terminating)},
			claims: []*corev1.PersistentVolumeClaim{claimOf("a", false), claimOf("b", true)}},
		{name: "reuse: a failed pod without claims is left alone", reuse: true,
			pods: []*corev1.Pod{claimPod("a", failed)}},
		{name: "no reuse: the claim of a deleted pod goes", reuse: false,
			pods:   []*corev1.Pod{claimPod("a")},
			claims: []*corev1.PersistentVolumeClaim{claimOf("a", false), claimOf("b", false)},
			want:   claimPlan{Orphans: []string{"data-cs-b"}}},
		{name: "no reuse: so do the claims of terminating and failed pods", reuse: false,
			pods:   []*corev1.Pod{claimPod("a", terminating), claimPod("b", failed), claimPod("c")},
			claims: []*corev1.PersistentVolumeClaim{claimOf("a", false), claimOf("b", false), claimOf("c", false)},
			want:   claimPlan{Orphans: []string{"data-cs-a", "data-cs-b"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := planClaims(tc.reuse, tc.pods, tc.claims)
			if len(got.IDs) != len(tc.claims) {
				t.Errorf("IDs %v, want every claim's id", got.IDs)
			}
			got.IDs = nil
			got.ByID = nil // TestPodClaims reads it
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// Creations take free ids first; those beyond wait while ids are pending.
func TestCreationsNow(t *testing.T) {
	cases := []struct {
		name      string
		plan      claimPlan
		n         int
		wantReuse []string
		wantFresh int
	}{
		{name: "no claims: all fresh", n: 3, wantFresh: 3},
		{name: "a free id for the first", plan: claimPlan{Free: []string{"b"}}, n: 3, wantReuse: []string{"b"}, wantFresh: 2},
		{name: "more free ids than creations", plan: claimPlan{Free: []string{"b", "c"}}, n: 1, wantReuse: []string{"b"}},
		{name: "a pending id holds one creation back", plan: claimPlan{Pending: 1}, n: 1},
		{name: "scale-up beyond the pending ids goes ahead", plan: claimPlan{Pending: 1, Free: []string{"b"}}, n: 4, wantReuse: []string{"b"}, wantFresh: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reuse, fresh := tc.plan.creationsNow(tc.n)
			if len(reuse) != len(tc.wantReuse) || (len(reuse) > 0 && !reflect.DeepEqual(reuse, tc.wantReuse)) || fresh != tc.wantFresh {
				t.Errorf("got %v, %d; want %v, %d", reuse, fresh, tc.wantReuse, tc.wantFresh)
			}
		})
	}
}

// The claims deleted with a pod: its current templates' and any other claim of its
// instance id (a template renamed since), nothing of another id.
func TestPodClaims(t *testing.T) {
	tmpl := func(name string) corev1.PersistentVolumeClaim {
		return corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: name}}
	}
	renamed := claimOf("a", false)
	renamed.Name = "old-cs-a"
	owned := []*corev1.PersistentVolumeClaim{claimOf("a", false), renamed, claimOf("b", false)}
	byID := planClaims(false, nil, owned).ByID
	got := podClaims([]corev1.PersistentVolumeClaim{tmpl("data"), tmpl("logs")}, byID, claimPod("a"))
	want := []string{"data-cs-a", "logs-cs-a", "old-cs-a"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("podClaims = %v, want %v", got, want)
	}
	if got := podClaims(nil, byID, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "x"}}); len(got) != 0 {
		t.Errorf("podClaims of a pod without instance id = %v, want none", got)
	}
}
