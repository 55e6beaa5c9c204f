package containerrecreate

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/recreaterequest"
)

var now = time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)

const (
	pending    = v1alpha1.ContainerRecreateRequestPending
	recreating = v1alpha1.ContainerRecreateRequestRecreating
	succeeded  = v1alpha1.ContainerRecreateRequestSucceeded
	failedPh   = v1alpha1.ContainerRecreateRequestFailed
	completed  = v1alpha1.ContainerRecreateRequestCompleted
)

type state = v1alpha1.ContainerRecreateRequestContainerRecreateState

// pod runs app (fakecri://app-2, 1 restart) and sidecar (fakecri://sc-1), both started
// a minute ago.
func pod() *corev1.Pod {
	started := metav1.NewTime(now.Add(-time.Minute))
	running := corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: started}}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "ns", UID: "uid-1"},
		Spec: corev1.PodSpec{
			TerminationGracePeriodSeconds: ptr.To[int64](45),
			Containers:                    []corev1.Container{{Name: "app"}, {Name: "sidecar"}},
		},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{
			{Name: "app", ContainerID: "fakecri://app-2", RestartCount: 1, Ready: true, State: running},
			{Name: "sidecar", ContainerID: "fakecri://sc-1", Ready: true, State: running},
		}},
	}
}

// crr asks for app and sidecar of web-0, created 10s ago.
func crr(edit ...func(*v1alpha1.ContainerRecreateRequest)) *v1alpha1.ContainerRecreateRequest {
	c := &v1alpha1.ContainerRecreateRequest{
		ObjectMeta: metav1.ObjectMeta{Name: "crr", Namespace: "ns", CreationTimestamp: metav1.NewTime(now.Add(-10 * time.Second)),
			Labels: map[string]string{v1alpha1.ContainerRecreateRequestPodUIDKey: "uid-1"}},
		Spec: v1alpha1.ContainerRecreateRequestSpec{
			PodName:    "web-0",
			Containers: []v1alpha1.ContainerRecreateRequestContainer{{Name: "app"}, {Name: "sidecar"}},
			Strategy:   &v1alpha1.ContainerRecreateRequestStrategy{FailurePolicy: v1alpha1.ContainerRecreateRequestFailurePolicyFail},
		},
	}
	for _, e := range edit {
		e(c)
	}
	return c
}

func withContexts(c *v1alpha1.ContainerRecreateRequest) {
	c.Spec.Containers[0].StatusContext = &v1alpha1.ContainerRecreateRequestContainerContext{ContainerID: "fakecri://app-2", RestartCount: 1}
	c.Spec.Containers[1].StatusContext = &v1alpha1.ContainerRecreateRequestContainerContext{ContainerID: "fakecri://sc-1"}
}

func phase(p v1alpha1.ContainerRecreateRequestPhase, states ...state) func(*v1alpha1.ContainerRecreateRequest) {
	return func(c *v1alpha1.ContainerRecreateRequest) {
		c.Status.Phase = p
		c.Status.ContainerRecreateStates = states
	}
}

func ordered(c *v1alpha1.ContainerRecreateRequest) { c.Spec.Strategy.OrderedRecreate = true }

func force(c *v1alpha1.ContainerRecreateRequest) { c.Spec.Strategy.ForceRecreate = true }

func ignore(c *v1alpha1.ContainerRecreateRequest) {
	c.Spec.Strategy.FailurePolicy = v1alpha1.ContainerRecreateRequestFailurePolicyIgnore
}

// restarted makes the pod show a new container for name, started ago and ready.
func restarted(name, id string, ago time.Duration) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		cs := containerStatus(p, name)
		cs.ContainerID, cs.RestartCount, cs.Ready = id, cs.RestartCount+1, true
		cs.State = corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(now.Add(-ago))}}
	}
}

func podWith(edits ...func(*corev1.Pod)) *corev1.Pod {
	p := pod()
	for _, e := range edits {
		e(p)
	}
	return p
}

func TestDecide(t *testing.T) {
	stopApp := StopOrder{Name: "app", ContainerID: "fakecri://app-2", GracePeriod: 45 * time.Second}
	stopSidecar := StopOrder{Name: "sidecar", ContainerID: "fakecri://sc-1", GracePeriod: 45 * time.Second}
	killed := func(name string) state { return state{Name: name, Phase: recreating, IsKilled: true} }

	cases := []struct {
		name       string
		crr        *v1alpha1.ContainerRecreateRequest
		pod        *corev1.Pod
		exited     map[string]bool
		wantKind   Kind
		wantCtx    map[string]v1alpha1.ContainerRecreateRequestContainerContext
		wantPhase  v1alpha1.ContainerRecreateRequestPhase
		wantStates []state
		wantStops  []StopOrder
		wantReason string // substring of the decision's reason
		wantAfter  time.Duration
	}{
		{
			name: "finished request: nothing", crr: crr(withContexts, phase(completed)), pod: pod(),
			wantKind: Wait, wantPhase: completed,
		},
		{
			// kruise-controller fails a request that can no longer run; the daemon
			// only stops acting on it
			name: "pod gone: nothing more is done", crr: crr(), pod: nil,
			wantKind: Wait, wantReason: "pod web-0 no longer exists",
		},
		{
			name: "pod replaced (other UID): nothing more is done", crr: crr(), pod: podWith(func(p *corev1.Pod) { p.UID = "uid-2" }),
			wantKind: Wait, wantReason: "was replaced",
		},
		{
			name: "pod finished: nothing more is done", crr: crr(), pod: podWith(func(p *corev1.Pod) { p.Status.Phase = corev1.PodSucceeded }),
			wantKind: Wait, wantReason: "has finished",
		},
		{
			name: "past activeDeadlineSeconds while recreating: nothing more is stopped",
			crr: crr(withContexts, phase(recreating, killed("app"), state{Name: "sidecar", Phase: pending}),
				func(c *v1alpha1.ContainerRecreateRequest) { c.Spec.ActiveDeadlineSeconds = ptr.To[int64](5) }), pod: pod(),
			wantKind: Wait, wantPhase: recreating, wantReason: "activeDeadlineSeconds (5s)",
		},
		{
			name: "unready grace: waits for the controller's mark (until the deadline)",
			crr: crr(phase(pending), func(c *v1alpha1.ContainerRecreateRequest) {
				c.Spec.Strategy.UnreadyGracePeriodSeconds = ptr.To[int64](3)
				c.Spec.ActiveDeadlineSeconds = ptr.To[int64](300)
			}),
			pod: pod(), wantKind: Wait, wantPhase: pending, wantAfter: 290 * time.Second,
		},
		{
			name: "unready grace: waits it out after the mark",
			crr: crr(phase(pending), func(c *v1alpha1.ContainerRecreateRequest) {
				c.Spec.Strategy.UnreadyGracePeriodSeconds = ptr.To[int64](3)
				c.Annotations = map[string]string{v1alpha1.ContainerRecreateRequestUnreadyAcquiredKey: now.Add(-time.Second).Format(time.RFC3339)}
			}),
			pod: pod(), wantKind: Wait, wantPhase: pending, wantAfter: 2 * time.Second,
		},
		{
			name: "empty phase counts as Pending: records the containers first",
			crr:  crr(), pod: pod(), wantKind: RecordContext,
			wantCtx: map[string]v1alpha1.ContainerRecreateRequestContainerContext{
				"app": {ContainerID: "fakecri://app-2", RestartCount: 1}, "sidecar": {ContainerID: "fakecri://sc-1"}},
		},
		{
			name: "a container without containerID yet: wait",
			crr:  crr(phase(pending)), pod: podWith(func(p *corev1.Pod) { p.Status.ContainerStatuses[1].ContainerID = "" }),
			wantKind: Wait, wantPhase: pending,
		},
		{
			name: "contexts recorded: Recreating, every container Pending",
			crr:  crr(withContexts, phase(pending)), pod: pod(),
			wantKind: UpdateStatus, wantPhase: recreating, wantStates: []state{{Name: "app", Phase: pending}, {Name: "sidecar", Phase: pending}},
		},
		{
			name: "unordered: both stopped at once",
			crr:  crr(withContexts, phase(recreating, state{Name: "app", Phase: pending}, state{Name: "sidecar", Phase: pending})), pod: pod(),
			wantKind: Stop, wantPhase: recreating, wantStates: []state{killed("app"), killed("sidecar")}, wantStops: []StopOrder{stopApp, stopSidecar},
		},
		{
			name: "ordered: only the first",
			crr:  crr(withContexts, ordered, phase(recreating, state{Name: "app", Phase: pending}, state{Name: "sidecar", Phase: pending})), pod: pod(),
			wantKind: Stop, wantPhase: recreating, wantStates: []state{killed("app"), {Name: "sidecar", Phase: pending}}, wantStops: []StopOrder{stopApp},
		},
		{
			name: "ordered: the next waits while the first is not running again",
			crr:  crr(withContexts, ordered, phase(recreating, killed("app"), state{Name: "sidecar", Phase: pending})), pod: pod(),
			wantKind: Wait, wantPhase: recreating,
		},
		{
			name: "never stopped twice: killed, pod still shows the old container",
			crr:  crr(withContexts, phase(recreating, killed("app"), killed("sidecar"))), pod: pod(),
			wantKind: Wait, wantPhase: recreating,
		},
		{
			name: "restarted but not yet running for minStartedSeconds: wait for it",
			crr: crr(withContexts, phase(recreating, killed("app"), killed("sidecar")),
				func(c *v1alpha1.ContainerRecreateRequest) { c.Spec.Strategy.MinStartedSeconds = 10 }),
			pod:      podWith(restarted("app", "fakecri://app-3", 4*time.Second)),
			wantKind: Wait, wantPhase: recreating, wantAfter: 6 * time.Second,
		},
		{
			name: "restarted and not ready: not Succeeded",
			crr:  crr(withContexts, phase(recreating, killed("app"), killed("sidecar"))),
			pod: podWith(restarted("app", "fakecri://app-3", time.Minute), func(p *corev1.Pod) {
				p.Status.ContainerStatuses[0].Ready = false
			}),
			wantKind: Wait, wantPhase: recreating,
		},
		{
			name: "ordered: first ran long enough, so Succeeded and the next is stopped",
			crr: crr(withContexts, ordered, phase(recreating, killed("app"), state{Name: "sidecar", Phase: pending}),
				func(c *v1alpha1.ContainerRecreateRequest) { c.Spec.Strategy.MinStartedSeconds = 10 }),
			pod:      podWith(restarted("app", "fakecri://app-3", 11*time.Second)),
			wantKind: Stop, wantPhase: recreating,
			wantStates: []state{{Name: "app", Phase: succeeded, IsKilled: true}, killed("sidecar")}, wantStops: []StopOrder{stopSidecar},
		},
		{
			name: "a higher restartCount with the same containerID counts as recreated",
			crr:  crr(withContexts, phase(recreating, killed("app"), state{Name: "sidecar", Phase: succeeded, IsKilled: true})),
			pod: podWith(func(p *corev1.Pod) {
				p.Status.ContainerStatuses[0].RestartCount = 2
			}),
			wantKind: UpdateStatus, wantPhase: recreating,
			wantStates: []state{{Name: "app", Phase: succeeded, IsKilled: true}, {Name: "sidecar", Phase: succeeded, IsKilled: true}},
		},
		{
			name:     "runtime says the container exited already (daemon restarted after the stop): marked, not stopped",
			crr:      crr(withContexts, phase(recreating, state{Name: "app", Phase: pending}, state{Name: "sidecar", Phase: pending})),
			pod:      pod(),
			exited:   map[string]bool{"app": true},
			wantKind: Stop, wantPhase: recreating, wantStates: []state{killed("app"), killed("sidecar")}, wantStops: []StopOrder{stopSidecar},
		},
		{
			name:     "only marks to write: UpdateStatus",
			crr:      crr(withContexts, phase(recreating, state{Name: "app", Phase: pending}, killed("sidecar"))),
			pod:      pod(),
			exited:   map[string]bool{"app": true},
			wantKind: UpdateStatus, wantPhase: recreating, wantStates: []state{killed("app"), killed("sidecar")},
		},
		{
			// kruise-controller then completes the request from the states
			name: "failurePolicy Fail: the first failure ends every other container",
			crr: crr(withContexts, phase(recreating, state{Name: "app", Phase: failedPh, Message: "rpc error: stop failed"},
				state{Name: "sidecar", Phase: pending})),
			pod: pod(), wantKind: UpdateStatus, wantPhase: recreating,
			wantStates: []state{{Name: "app", Phase: failedPh, Message: "rpc error: stop failed"},
				{Name: "sidecar", Phase: failedPh, Message: "not recreated: container app failed and failurePolicy is Fail"}},
		},
		{
			name: "failurePolicy Ignore: carries on",
			crr: crr(withContexts, ignore, phase(recreating, state{Name: "app", Phase: failedPh, Message: "boom"},
				state{Name: "sidecar", Phase: pending})),
			pod: pod(), wantKind: Stop, wantPhase: recreating,
			wantStates: []state{{Name: "app", Phase: failedPh, Message: "boom"}, killed("sidecar")}, wantStops: []StopOrder{stopSidecar},
		},
		{
			name: "failurePolicy Ignore: the others go on to their end",
			crr:  crr(withContexts, ignore, phase(recreating, state{Name: "app", Phase: failedPh, Message: "boom"}, killed("sidecar"))),
			pod:  podWith(restarted("sidecar", "fakecri://sc-2", time.Second)), wantKind: UpdateStatus, wantPhase: recreating,
			wantStates: []state{{Name: "app", Phase: failedPh, Message: "boom"}, {Name: "sidecar", Phase: succeeded, IsKilled: true}},
		},
		{
			// the daemon writes no final phase: kruise-controller completes the request
			name:     "all recreated: every container Succeeded, the phase stays",
			crr:      crr(withContexts, phase(recreating, killed("app"), killed("sidecar"))),
			pod:      podWith(restarted("app", "fakecri://app-3", time.Second), restarted("sidecar", "fakecri://sc-2", time.Second)),
			wantKind: UpdateStatus, wantPhase: recreating,
			wantStates: []state{{Name: "app", Phase: succeeded, IsKilled: true}, {Name: "sidecar", Phase: succeeded, IsKilled: true}},
		},
		{
			name: "all final and written: waits for kruise-controller to complete the request",
			crr: crr(withContexts, phase(recreating, state{Name: "app", Phase: succeeded, IsKilled: true},
				state{Name: "sidecar", Phase: succeeded, IsKilled: true})),
			pod:      podWith(restarted("app", "fakecri://app-3", time.Second), restarted("sidecar", "fakecri://sc-2", time.Second)),
			wantKind: Wait, wantPhase: recreating, wantReason: "kruise-controller completes the request",
		},
		{
			name: "completionTime set (by kruise-controller): nothing",
			crr: crr(withContexts, phase(recreating, killed("app"), killed("sidecar")), func(c *v1alpha1.ContainerRecreateRequest) {
				c.Status.CompletionTime = &metav1.Time{Time: now}
			}),
			pod: pod(), wantKind: Wait, wantPhase: recreating, wantReason: "finished",
		},
		{
			name: "restarted on its own before the stop: that restart counts as the recreation",
			crr:  crr(withContexts, phase(recreating, state{Name: "app", Phase: pending}, killed("sidecar"))),
			pod:  podWith(restarted("app", "fakecri://app-3", time.Second)), wantKind: UpdateStatus, wantPhase: recreating,
			wantStates: []state{{Name: "app", Phase: succeeded}, killed("sidecar")},
		},
		{
			name: "forceRecreate: a container restarted on its own before the stop is recorded again",
			crr:  crr(withContexts, force, phase(recreating, state{Name: "app", Phase: pending}, killed("sidecar"))),
			pod:  podWith(restarted("app", "fakecri://app-3", time.Second)), wantKind: RecordContext, wantPhase: recreating,
			wantCtx: map[string]v1alpha1.ContainerRecreateRequestContainerContext{"app": {ContainerID: "fakecri://app-3", RestartCount: 2}},
		},
		{
			name: "forceRecreate: ... and then stopped",
			crr: crr(withContexts, force, phase(recreating, state{Name: "app", Phase: pending}, killed("sidecar")),
				func(c *v1alpha1.ContainerRecreateRequest) {
					c.Spec.Containers[0].StatusContext = &v1alpha1.ContainerRecreateRequestContainerContext{ContainerID: "fakecri://app-3", RestartCount: 2}
				}),
			pod:      podWith(restarted("app", "fakecri://app-3", time.Second)),
			wantKind: Stop, wantPhase: recreating, wantStates: []state{killed("app"), killed("sidecar")},
			wantStops: []StopOrder{{Name: "app", ContainerID: "fakecri://app-3", GracePeriod: 45 * time.Second}},
		},
		{
			name: "forceRecreate: a container it stopped itself is not recorded again",
			crr:  crr(withContexts, force, phase(recreating, killed("app"), killed("sidecar"))),
			pod:  podWith(restarted("app", "fakecri://app-3", time.Second)), wantKind: UpdateStatus, wantPhase: recreating,
			wantStates: []state{{Name: "app", Phase: succeeded, IsKilled: true}, killed("sidecar")},
		},
		{
			name: "a container the pod does not have fails",
			crr: crr(withContexts, ignore, phase(recreating, state{Name: "app", Phase: pending}, state{Name: "sidecar", Phase: pending}),
				func(c *v1alpha1.ContainerRecreateRequest) { c.Spec.Containers[1].Name = "db" }),
			pod: pod(), wantKind: Stop, wantPhase: recreating,
			wantStates: []state{killed("app"), {Name: "db", Phase: failedPh, Message: "container db not found in pod web-0"}},
			wantStops:  []StopOrder{stopApp},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := Decide(Input{CRR: tc.crr, Pod: tc.pod, Exited: tc.exited, Now: now})
			if d.Kind != tc.wantKind {
				t.Fatalf("kind = %s (%s), want %s", d.Kind, d.Reason, tc.wantKind)
			}
			if !strings.Contains(d.Reason, tc.wantReason) {
				t.Errorf("reason = %q, want it to contain %q", d.Reason, tc.wantReason)
			}
			if d.RequeueAfter != tc.wantAfter {
				t.Errorf("requeue after %s, want %s", d.RequeueAfter, tc.wantAfter)
			}
			if diff := cmp.Diff(tc.wantCtx, d.Contexts); diff != "" {
				t.Errorf("contexts (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantStops, d.Stops); diff != "" {
				t.Errorf("stops (-want +got):\n%s", diff)
			}
			// the phase after the step: the daemon moves it only to Recreating
			phase, states := tc.crr.Status.Phase, d.States
			if d.Phase != "" {
				phase = d.Phase
			}
			if d.Kind == Wait || d.Kind == RecordContext {
				states = tc.crr.Status.ContainerRecreateStates
			}
			if phase != tc.wantPhase {
				t.Errorf("phase = %q, want %q", phase, tc.wantPhase)
			}
			if d.Phase != "" && recreaterequest.PhaseWriter(string(tc.crr.Status.Phase), string(d.Phase)) != recreaterequest.Daemon {
				t.Errorf("the daemon moves the phase %q → %q, which is not its move", tc.crr.Status.Phase, d.Phase)
			}
			if tc.wantStates != nil {
				if diff := cmp.Diff(tc.wantStates, states); diff != "" {
					t.Errorf("states (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestGracePeriod(t *testing.T) {
	cases := []struct {
		name     string
		crrGrace *int64
		podGrace *int64
		want     time.Duration
	}{
		{"request's", ptr.To[int64](5), ptr.To[int64](45), 5 * time.Second},
		{"pod's", nil, ptr.To[int64](45), 45 * time.Second},
		{"kubelet default", nil, nil, DefaultGracePeriod},
		{"zero is a value", ptr.To[int64](0), ptr.To[int64](45), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := crr(func(c *v1alpha1.ContainerRecreateRequest) {
				c.Spec.Strategy.TerminationGracePeriodSeconds = tc.crrGrace
			})
			p := podWith(func(p *corev1.Pod) { p.Spec.TerminationGracePeriodSeconds = tc.podGrace })
			if got := gracePeriod(c, p); got != tc.want {
				t.Errorf("grace = %s, want %s", got, tc.want)
			}
		})
	}
}

// TestDecideRestartSafe replays a request step by step, each time from the stored
// objects only (as a restarted daemon does), and checks each container is stopped once.
func TestDecideRestartSafe(t *testing.T) {
	c := crr(ordered)
	p := pod()
	stops := map[string]int{}
	for step := 0; step < 20; step++ {
		d := Decide(Input{CRR: c, Pod: p, Now: now})
		switch d.Kind {
		case RecordContext:
			for i := range c.Spec.Containers {
				ctx := d.Contexts[c.Spec.Containers[i].Name]
				c.Spec.Containers[i].StatusContext = &ctx
			}
		case UpdateStatus:
			if d.Phase != "" {
				c.Status.Phase = d.Phase
			}
			c.Status.ContainerRecreateStates = d.States
			if recreaterequest.ContainersDone(c) {
				// kruise-controller completes it
				if stops["app"] != 1 || stops["sidecar"] != 1 {
					t.Fatalf("done with stops %v, want one stop each", stops)
				}
				return
			}
		case Stop:
			for _, s := range d.Stops {
				stops[s.Name]++
				// the kubelet starts a new container a while later
				restarted(s.Name, s.ContainerID+"-new", time.Hour)(p)
			}
			c.Status.ContainerRecreateStates = d.States
		case Wait:
			t.Fatalf("step %d: unexpected wait: %s", step, d.Reason)
		}
	}
	t.Fatalf("no end after 20 steps; stops %v, status %+v", stops, c.Status)
}
