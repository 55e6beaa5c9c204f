package daemonset

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/nodeplacement"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	kruisefake "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned/fake"
)

// Status counts nodes as kube does: the oldest pod of an eligible node speaks for it;
// pods on nodes that should not run one are misscheduled.
func TestComputeStatus(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	pod := func(name, rev string, ready bool, age time.Duration) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{pub.ControllerRevisionHashLabelKey: rev},
			CreationTimestamp: metav1.NewTime(now.Add(-age))}}
		if ready {
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(now.Add(-age))}}
		}
		return p
	}
	run := nodeplacement.Eligibility{ShouldRun: true, ShouldContinueRunning: true}
	st := &syncState{
		ds:   &v1beta1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Generation: 4}, Spec: v1beta1.DaemonSetSpec{MinReadySeconds: 30}},
		now:  now,
		revs: &podworkload.Revisions{Update: &appsv1.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: "ds-new"}}, CollisionCount: 1},
		nodes: []nodeState{
			{name: "a", eligibility: run, pods: []*corev1.Pod{pod("a0", "ds-new", true, time.Minute)}},
			{name: "b", eligibility: run, pods: []*corev1.Pod{pod("b0", "ds-old", true, time.Minute), pod("b1", "ds-new", true, time.Minute)}},
			{name: "c", eligibility: run, pods: []*corev1.Pod{pod("c0", "ds-new", true, 10*time.Second)}},
			{name: "d", eligibility: run},
			{name: "e", eligibility: nodeplacement.Eligibility{ShouldContinueRunning: true}, pods: []*corev1.Pod{pod("e0", "ds-old", true, time.Minute)}},
			{name: "gone", pods: []*corev1.Pod{pod("g0", "ds-old", false, time.Minute)}},
		},
	}
	got := computeStatus(st, nil)
	want := v1beta1.DaemonSetStatus{
		DesiredNumberScheduled: 4, CurrentNumberScheduled: 3, NumberMisscheduled: 2,
		NumberReady: 3, NumberAvailable: 2, NumberUnavailable: 2, UpdatedNumberScheduled: 2,
		ObservedGeneration: 4, UpdateRevision: "ds-new", CollisionCount: ptr.To[int32](1),
	}
	if !podworkload.StatusUnchanged(want, got) {
		t.Errorf("status = %+v\nwant %+v", got, want)
	}
}

func TestResolveLimits(t *testing.T) {
	pct := func(s string) *intstr.IntOrString { v := intstr.FromString(s); return &v }
	num := func(i int32) *intstr.IntOrString { v := intstr.FromInt32(i); return &v }
	ds := func(ru *v1beta1.RollingUpdateDaemonSet, burst *intstr.IntOrString, onDelete bool) *v1beta1.DaemonSet {
		d := &v1beta1.DaemonSet{Spec: v1beta1.DaemonSetSpec{BurstReplicas: burst,
			UpdateStrategy: v1beta1.DaemonSetUpdateStrategy{Type: v1beta1.RollingUpdateDaemonSetStrategyType, RollingUpdate: ru}}}
		if onDelete {
			d.Spec.UpdateStrategy.Type = v1beta1.OnDeleteDaemonSetStrategyType
		}
		return d
	}
	cases := []struct {
		name    string
		ds      *v1beta1.DaemonSet
		desired int
		want    Limits
	}{
		{"percent rounds up", ds(&v1beta1.RollingUpdateDaemonSet{MaxUnavailable: pct("10%"), Partition: ptr.To[int32](2)}, num(250), false), 15,
			Limits{MaxUnavailable: 2, Partition: 2, Burst: 250}},
		{"surge", ds(&v1beta1.RollingUpdateDaemonSet{MaxSurge: pct("50%"), MaxUnavailable: num(0)}, pct("10%"), false), 5,
			Limits{MaxSurge: 3, Burst: 1}},
		{"both zero: one unavailable", ds(&v1beta1.RollingUpdateDaemonSet{MaxUnavailable: pct("0%")}, nil, false), 5,
			Limits{MaxUnavailable: 1, Burst: 250}},
		{"paused", ds(&v1beta1.RollingUpdateDaemonSet{MaxUnavailable: num(1), Paused: ptr.To(true)}, num(5), false), 5,
			Limits{MaxUnavailable: 1, Paused: true, Burst: 5}},
		{"OnDelete holds the rollout", ds(nil, num(5), true), 5, Limits{MaxUnavailable: 1, Paused: true, Burst: 5}},
		{"burstReplicas above the shared bound", ds(nil, num(math.MaxInt32), false), 5, Limits{MaxUnavailable: 1, Burst: batch.Burst}},
		{"a percent of many nodes above the shared bound", ds(nil, pct("100%"), false), 100000, Limits{MaxUnavailable: 1, Burst: batch.Burst}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := resolveLimits(tc.ds, tc.desired)
			if err != nil || got != tc.want {
				t.Errorf("resolveLimits = %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

// A failed sync sets SyncFailed with its error, keeping the first transition time
// while syncs keep failing, and other conditions; a sync that succeeds removes it.
func TestSetSyncFailed(t *testing.T) {
	t0, t1 := metav1.NewTime(time.Unix(100, 0)), metav1.NewTime(time.Unix(200, 0))
	other := appsv1.DaemonSetCondition{Type: "Other", Status: corev1.ConditionTrue}
	failed := setSyncFailed([]appsv1.DaemonSetCondition{other}, errTest("creating pod: forbidden"), t0)
	if len(failed) != 2 || failed[1].Type != conditionSyncFailed || failed[1].Status != corev1.ConditionTrue ||
		failed[1].Reason != "ReconcileFailed" || failed[1].Message == "" || !failed[1].LastTransitionTime.Equal(&t0) {
		t.Fatalf("after a failed sync: %+v", failed)
	}
	again := setSyncFailed(failed, errTest("creating pod: forbidden"), t1)
	if len(again) != 2 || !again[1].LastTransitionTime.Equal(&t0) {
		t.Errorf("a second failure moved the transition time: %+v", again)
	}
	if ok := setSyncFailed(again, nil, t1); len(ok) != 1 || ok[0].Type != "Other" {
		t.Errorf("after a successful sync: %+v", ok)
	}
}

type errTest string

func (e errTest) Error() string { return string(e) }

// A sync that planned pod writes may leave its status to the next sync, unless the
// status says something new about the set itself or reports a failure (how long it may
// be put off is podworkload's).
func TestStatusDeferral(t *testing.T) {
	stored := v1beta1.DaemonSetStatus{ObservedGeneration: 2, UpdateRevision: "r2", DesiredNumberScheduled: 3, UpdatedNumberScheduled: 1}
	for _, tc := range []struct {
		name      string
		podWrites bool
		change    func(*v1beta1.DaemonSetStatus)
		syncErr   error
		wantDefer bool
	}{
		{name: "pod writes, counts changed", podWrites: true, change: func(s *v1beta1.DaemonSetStatus) { s.UpdatedNumberScheduled = 2 }, wantDefer: true},
		{name: "no pod writes", change: func(s *v1beta1.DaemonSetStatus) { s.UpdatedNumberScheduled = 2 }},
		{name: "new generation", podWrites: true, change: func(s *v1beta1.DaemonSetStatus) { s.ObservedGeneration = 3 }},
		{name: "new revision", podWrites: true, change: func(s *v1beta1.DaemonSetStatus) { s.UpdateRevision = "r3" }},
		{name: "node count changed", podWrites: true, change: func(s *v1beta1.DaemonSetStatus) { s.DesiredNumberScheduled = 4 }},
		{name: "sync failed", podWrites: true, change: func(s *v1beta1.DaemonSetStatus) { s.UpdatedNumberScheduled = 2 }, syncErr: errors.New("boom")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := &v1beta1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "ds", ResourceVersion: "1"}, Status: stored}
			client := kruisefake.NewSimpleClientset(ds) // NewClientset needs a schema our apply configurations lack
			status := stored
			tc.change(&status)
			var requeue podworkload.Requeue
			out, err := podworkload.NewStatusWriter(api{client}).Write(context.Background(), ds, status,
				podworkload.Outcome{PodWrites: tc.podWrites, Failed: tc.syncErr != nil, Requeue: &requeue})
			if err != nil {
				t.Fatal(err)
			}
			if deferred := out == nil; deferred != tc.wantDefer {
				t.Errorf("deferred = %v, want %v", deferred, tc.wantDefer)
			}
			if asked := requeue.Get() > 0; asked != tc.wantDefer {
				t.Errorf("a later sync asked for: %v, want %v", asked, tc.wantDefer)
			}
		})
	}
}
