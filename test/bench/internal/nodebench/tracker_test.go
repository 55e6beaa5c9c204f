package nodebench

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

const (
	oldDigest = "sha256:0001"
	newDigest = "sha256:0002"
)

// pod is a pod of uid at ip whose container "app" runs the image of digest.
func pod(uid, ip, digest string, running, ready bool) *corev1.Pod {
	started := running
	st := corev1.ContainerStatus{Name: "app", Started: &started, ImageID: "docker.io/bench/x@" + digest}
	if running {
		st.State.Running = &corev1.ContainerStateRunning{}
	} else {
		st.State.Waiting = &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}
	}
	cond := corev1.ConditionFalse
	if ready {
		cond = corev1.ConditionTrue
	}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{UID: types.UID(uid), Name: uid},
		Status: corev1.PodStatus{PodIP: ip, ContainerStatuses: []corev1.ContainerStatus{st},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: cond}}},
	}
}

func TestRunsImage(t *testing.T) {
	other := pod("a", "", newDigest, true, true)
	other.Status.ContainerStatuses[0].Name = "sidecar"
	notStarted := pod("a", "", newDigest, true, true)
	f := false
	notStarted.Status.ContainerStatuses[0].Started = &f
	for _, tc := range []struct {
		name string
		pod  *corev1.Pod
		want bool
	}{
		{"new image running", pod("a", "", newDigest, true, true), true},
		{"old image running", pod("a", "", oldDigest, true, true), false},
		{"new image still creating", pod("a", "", newDigest, false, false), false},
		{"running, startup not passed", notStarted, false},
		{"another container", other, false},
	} {
		if got := RunsImage(tc.pod, "app", newDigest); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if RunsImage(pod("a", "", newDigest, true, true), "app", "") {
		t.Errorf("an unknown digest matched")
	}
}

// TestTrackerInPlace: two pods updated in place keep UID and address; each is timed
// from the start to its first sighting on the new image, and the rollout completes when
// both are Ready on it.
func TestTrackerInPlace(t *testing.T) {
	start := time.Unix(1000, 0)
	at := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	before := []corev1.Pod{*pod("a", "10.0.0.1", oldDigest, true, true), *pod("b", "10.0.0.2", oldDigest, true, true)}
	tr := NewTracker(before, "app", newDigest, 2, start)
	tr.Observe(at(0.5), pod("a", "10.0.0.1", oldDigest, true, false), false) // a's container stopping
	tr.Observe(at(1.5), pod("a", "10.0.0.1", newDigest, true, false), false)
	tr.Observe(at(2.0), pod("a", "10.0.0.1", newDigest, true, true), false) // seen again: keeps 1.5
	tr.Observe(at(2.5), pod("b", "10.0.0.2", newDigest, true, false), false)
	select {
	case <-tr.Done():
		t.Fatal("done while b is not Ready")
	default:
	}
	tr.Observe(at(3.0), pod("b", "10.0.0.2", newDigest, true, true), false)
	select {
	case <-tr.Done():
	default:
		t.Fatal("not done with both Ready on the new image")
	}
	o := tr.Outcome()
	if o.Wall != 3*time.Second || o.UIDsKept != 2 || o.IPsKept != 2 || o.Pods != 2 {
		t.Errorf("outcome %+v", o)
	}
	if len(o.PerPod) != 2 || o.PerPod[0]+o.PerPod[1] != 4*time.Second {
		t.Errorf("per pod %v, want 1.5s and 2.5s", o.PerPod)
	}
}

// TestTrackerRecreate: new pods replace old ones; an old pod still terminating keeps the
// rollout from completing; no UID survives, and an address reused by a new pod counts.
func TestTrackerRecreate(t *testing.T) {
	start := time.Unix(1000, 0)
	at := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	a, b := pod("a", "10.0.0.1", oldDigest, true, true), pod("b", "10.0.0.2", oldDigest, true, true)
	tr := NewTracker([]corev1.Pod{*a, *b}, "app", newDigest, 2, start)
	tr.Observe(at(1), a, true)
	tr.Observe(at(2), pod("c", "10.0.0.3", newDigest, true, true), false)
	terminating := b.DeepCopy()
	terminating.DeletionTimestamp = &metav1.Time{Time: at(2)}
	tr.Observe(at(2.5), terminating, false)
	tr.Observe(at(3), pod("d", "10.0.0.1", newDigest, true, true), false) // a's old address
	select {
	case <-tr.Done():
		t.Fatal("done while an old pod is terminating")
	default:
	}
	tr.Observe(at(4), terminating, true)
	o := tr.Outcome()
	if o.Wall != 4*time.Second || o.UIDsKept != 0 || o.IPsKept != 1 || len(o.PerPod) != 2 {
		t.Errorf("outcome %+v", o)
	}
}
