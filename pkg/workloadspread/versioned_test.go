package workloadspread

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

func deploymentSpread() *appsv1beta1.WorkloadSpread {
	two := intstr.FromInt32(2)
	ws := capped(&two, nil)
	ws.Spec.TargetReference = &appsv1beta1.TargetReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}
	return ws
}

func TestPodVersion(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"pod-template-hash": "h1"}}}
	for _, tc := range []struct {
		kind, apiVersion, want string
	}{
		{"Deployment", "apps/v1", "h1"},
		{"ReplicaSet", "apps/v1", "h1"},
		{"CloneSet", "apps.kruise.io/v1alpha1", ""},
		{"StatefulSet", "apps/v1", ""},
	} {
		ws := &appsv1beta1.WorkloadSpread{Spec: appsv1beta1.WorkloadSpreadSpec{
			TargetReference: &appsv1beta1.TargetReference{APIVersion: tc.apiVersion, Kind: tc.kind}}}
		if got := PodVersion(ws, pod); got != tc.want {
			t.Errorf("%s: version %q, want %q", tc.kind, got, tc.want)
		}
	}
}

// A surge rollout: subset a (max 2) is full of the old version's pods. Counted per
// version, the new version's first two pods still go to a, the third to b; counted
// together (Reserve) the first would already go to b.
func TestReserveVersionDuringSurge(t *testing.T) {
	now := metav1.NewTime(t0)
	ws := deploymentSpread()
	ws.Status = appsv1beta1.WorkloadSpreadStatus{ObservedGeneration: ws.Generation,
		SubsetStatuses: []appsv1beta1.WorkloadSpreadSubsetStatus{{Name: "a", Replicas: 2}, {Name: "b", Replicas: 3, MissingReplicas: -1}},
		VersionedSubsetStatuses: map[string]appsv1beta1.WorkloadSpreadSubsetStatusList{
			"old": {{Name: "a", Replicas: 2}, {Name: "b", Replicas: 3, MissingReplicas: -1}}}}
	if _, s := Reserve(ws.DeepCopy(), "new-0", now); s != "b" {
		t.Fatalf("counted together the new pod goes to %q, want b (the bug versions fix)", s)
	}
	init, err := NewVersion(ws, 5)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"a", "a", "b"} {
		pod := "new-" + string(rune('0'+i))
		d, s := ReserveVersion(ws, "new", init, pod, now)
		if d != Reserved || s != want {
			t.Fatalf("%s: %v %q, want subset %q", pod, d, s, want)
		}
	}
	// Again for the same pod: same subset, nothing taken twice.
	if _, s := ReserveVersion(ws, "new", init, "new-0", now); s != "a" {
		t.Errorf("retry of new-0 went to %q", s)
	}
	nv := ws.Status.VersionedSubsetStatuses["new"]
	if nv[0].MissingReplicas != 0 || len(nv[0].CreatingPods) != 2 || len(nv[1].CreatingPods) != 1 {
		t.Errorf("new version statuses %+v", nv)
	}
	if old := ws.Status.VersionedSubsetStatuses["old"]; old[0].MissingReplicas != 0 || len(old[0].CreatingPods) != 0 {
		t.Errorf("the old version's statuses changed: %+v", old)
	}
	if agg := ws.Status.SubsetStatuses; len(agg[0].CreatingPods) != 2 || agg[0].MissingReplicas != 0 {
		t.Errorf("aggregate statuses %+v: the new pods are recorded, missing never below 0", agg)
	}
	// A delete frees the slot in the pod's version.
	if !ReleaseVersion(ws, "new", "a", "new-0", now) || ws.Status.VersionedSubsetStatuses["new"][0].MissingReplicas != 1 {
		t.Errorf("release: %+v", ws.Status.VersionedSubsetStatuses["new"])
	}
	// Not counted yet and no initial statuses: not placed.
	stale := deploymentSpread()
	if d, _ := ReserveVersion(stale, "v", nil, "p", now); d != NotReady {
		t.Errorf("uncounted spread: %v", d)
	}
}

func TestComputeVersions(t *testing.T) {
	ws := deploymentSpread()
	ws.Status.VersionedSubsetStatuses = map[string]appsv1beta1.WorkloadSpreadSubsetStatusList{
		"gone":    {{Name: "a"}, {Name: "b", MissingReplicas: -1}},
		"pending": {{Name: "a", CreatingPods: map[string]metav1.Time{"p-0": metav1.NewTime(t0)}}, {Name: "b", MissingReplicas: -1}},
	}
	pods := append(in("a", "o0", "o1"), in("b", "o2")...)
	for i := range pods {
		pods[i].Version = "old"
	}
	newPods := in("a", "n0")
	newPods[0].Version = "new"
	pods = append(pods, newPods...)
	got, requeue, err := ComputeVersions(ws, 5, pods, t0.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got["gone"]; ok || len(got) != 3 {
		t.Fatalf("versions %v: want old, new and pending (gone has no pods and nothing in flight)", got)
	}
	if o := got["old"]; o[0].Replicas != 2 || o[0].MissingReplicas != 0 || o[1].Replicas != 1 {
		t.Errorf("old %+v", o)
	}
	if n := got["new"]; n[0].Replicas != 1 || n[0].MissingReplicas != 1 {
		t.Errorf("new %+v: one pod of its own in a, one slot left", n)
	}
	if p := got["pending"]; p[0].MissingReplicas != 1 || len(p[0].CreatingPods) != 1 {
		t.Errorf("pending %+v", p)
	}
	if requeue != CreatingTimeout-time.Second {
		t.Errorf("requeue %v", requeue)
	}
	ws.Spec.TargetReference = &appsv1beta1.TargetReference{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: "web"}
	if got, _, _ := ComputeVersions(ws, 5, pods, t0); got != nil {
		t.Errorf("a CloneSet spread is not versioned: %v", got)
	}
}
