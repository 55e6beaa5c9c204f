package containerrecreaterequest

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/recreaterequest"
)

func TestDecide(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "pod", UID: "uid-1"}}
	base := func(mut ...func(*v1alpha1.ContainerRecreateRequest)) *v1alpha1.ContainerRecreateRequest {
		crr := &v1alpha1.ContainerRecreateRequest{
			ObjectMeta: metav1.ObjectMeta{Name: "crr", CreationTimestamp: metav1.NewTime(now.Add(-10 * time.Second)),
				Labels: map[string]string{
					v1alpha1.ContainerRecreateRequestPodUIDKey:   "uid-1",
					v1alpha1.ContainerRecreateRequestNodeNameKey: "kwok-node-0",
					v1alpha1.ContainerRecreateRequestActiveKey:   "true",
				}},
			Spec: v1alpha1.ContainerRecreateRequestSpec{PodName: "pod", Strategy: &v1alpha1.ContainerRecreateRequestStrategy{},
				Containers: []v1alpha1.ContainerRecreateRequestContainer{{Name: "app"}, {Name: "sidecar"}}},
		}
		for _, m := range mut {
			m(crr)
		}
		return crr
	}
	phase := func(p v1alpha1.ContainerRecreateRequestPhase) func(*v1alpha1.ContainerRecreateRequest) {
		return func(c *v1alpha1.ContainerRecreateRequest) { c.Status.Phase = p }
	}
	age := func(d time.Duration) func(*v1alpha1.ContainerRecreateRequest) {
		return func(c *v1alpha1.ContainerRecreateRequest) { c.CreationTimestamp = metav1.NewTime(now.Add(-d)) }
	}
	unready := func(grace int64) func(*v1alpha1.ContainerRecreateRequest) {
		return func(c *v1alpha1.ContainerRecreateRequest) { c.Spec.Strategy.UnreadyGracePeriodSeconds = &grace }
	}
	acquired := func(ago time.Duration) func(*v1alpha1.ContainerRecreateRequest) {
		return func(c *v1alpha1.ContainerRecreateRequest) {
			c.Annotations = map[string]string{v1alpha1.ContainerRecreateRequestUnreadyAcquiredKey: now.Add(-ago).Format(time.RFC3339)}
		}
	}
	// states gives app and sidecar (in that order, as many as phases) their states.
	states := func(phases ...v1alpha1.ContainerRecreateRequestPhase) func(*v1alpha1.ContainerRecreateRequest) {
		return func(c *v1alpha1.ContainerRecreateRequest) {
			names := []string{"app", "sidecar"}
			for i, p := range phases {
				st := v1alpha1.ContainerRecreateRequestContainerRecreateState{Name: names[i], Phase: p, IsKilled: true}
				if p == v1alpha1.ContainerRecreateRequestFailed {
					st.Message = names[i] + " said no"
				}
				c.Status.ContainerRecreateStates = append(c.Status.ContainerRecreateStates, st)
			}
		}
	}
	done := func(ago time.Duration, ttl *int32) func(*v1alpha1.ContainerRecreateRequest) {
		return func(c *v1alpha1.ContainerRecreateRequest) {
			c.Status.Phase = v1alpha1.ContainerRecreateRequestCompleted
			c.Status.CompletionTime = &metav1.Time{Time: now.Add(-ago)}
			c.Spec.TTLSecondsAfterFinished = ttl
		}
	}

	cases := []struct {
		name string
		crr  *v1alpha1.ContainerRecreateRequest
		pod  *corev1.Pod
		want Action
		msg  string
	}{
		{name: "new request becomes Pending", crr: base(), pod: pod,
			want: Action{Phase: v1alpha1.ContainerRecreateRequestPending}},
		{name: "Pending waits for the daemon", crr: base(phase(v1alpha1.ContainerRecreateRequestPending)), pod: pod,
			want: Action{RequeueAfter: PickupTimeout - 10*time.Second}},
		{name: "Pending too long fails", crr: base(phase(v1alpha1.ContainerRecreateRequestPending), age(PickupTimeout)), pod: pod,
			want: Action{Phase: v1alpha1.ContainerRecreateRequestFailed}, msg: `no node daemon on node "kwok-node-0"`},
		{name: "Recreating is the daemon's", crr: base(phase(v1alpha1.ContainerRecreateRequestRecreating), age(time.Hour)), pod: pod,
			want: Action{}},
		{name: "pod gone", crr: base(phase(v1alpha1.ContainerRecreateRequestRecreating)), pod: nil,
			want: Action{Phase: v1alpha1.ContainerRecreateRequestFailed}, msg: "no longer exists"},
		{name: "pod recreated", crr: base(), pod: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "pod", UID: "uid-2"}},
			want: Action{Phase: v1alpha1.ContainerRecreateRequestFailed}, msg: "was replaced"},
		{name: "pod finished", crr: base(phase(v1alpha1.ContainerRecreateRequestRecreating)),
			pod:  &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "pod", UID: "uid-1"}, Status: corev1.PodStatus{Phase: corev1.PodFailed}},
			want: Action{Phase: v1alpha1.ContainerRecreateRequestFailed}, msg: "has finished (phase Failed)"},
		{name: "deadline passed", crr: base(phase(v1alpha1.ContainerRecreateRequestRecreating), age(time.Minute),
			func(c *v1alpha1.ContainerRecreateRequest) { c.Spec.ActiveDeadlineSeconds = ptr.To[int64](30) }), pod: pod,
			want: Action{Phase: v1alpha1.ContainerRecreateRequestFailed}, msg: "activeDeadlineSeconds (30s)"},
		{name: "deadline ahead: look again then", crr: base(phase(v1alpha1.ContainerRecreateRequestRecreating),
			func(c *v1alpha1.ContainerRecreateRequest) { c.Spec.ActiveDeadlineSeconds = ptr.To[int64](30) }), pod: pod,
			want: Action{RequeueAfter: 20 * time.Second}},
		{name: "unready grace: take the pod out first", crr: base(phase(v1alpha1.ContainerRecreateRequestPending), unready(3)), pod: pod,
			want: Action{AcquireUnready: true}},
		{name: "unready acquired: pickup counts from the end of the grace",
			crr: base(phase(v1alpha1.ContainerRecreateRequestPending), unready(30), age(2*PickupTimeout), acquired(40*time.Second)), pod: pod,
			want: Action{RequeueAfter: PickupTimeout - 10*time.Second}},
		{name: "every container Succeeded: Completed", crr: base(phase(v1alpha1.ContainerRecreateRequestRecreating),
			states(v1alpha1.ContainerRecreateRequestSucceeded, v1alpha1.ContainerRecreateRequestSucceeded)), pod: pod,
			want: Action{Phase: v1alpha1.ContainerRecreateRequestCompleted}},
		{name: "failures: Completed naming them", crr: base(phase(v1alpha1.ContainerRecreateRequestRecreating),
			states(v1alpha1.ContainerRecreateRequestFailed, v1alpha1.ContainerRecreateRequestFailed)), pod: pod,
			want: Action{Phase: v1alpha1.ContainerRecreateRequestCompleted},
			msg:  "failed to recreate app (app said no), sidecar (sidecar said no)"},
		{name: "a container still recreating: the daemon is at work", crr: base(phase(v1alpha1.ContainerRecreateRequestRecreating),
			states(v1alpha1.ContainerRecreateRequestSucceeded, v1alpha1.ContainerRecreateRequestRecreating)), pod: pod,
			want: Action{}},
		{name: "a container without a state yet: the daemon is at work", crr: base(phase(v1alpha1.ContainerRecreateRequestRecreating),
			states(v1alpha1.ContainerRecreateRequestSucceeded)), pod: pod,
			want: Action{}},
		{name: "final states are not the daemon's start: Pending stays until it takes the request",
			crr: base(phase(v1alpha1.ContainerRecreateRequestPending),
				states(v1alpha1.ContainerRecreateRequestSucceeded, v1alpha1.ContainerRecreateRequestSucceeded)), pod: pod,
			want: Action{RequeueAfter: PickupTimeout - 10*time.Second}},
		{name: "done containers win over a blocker that came up meanwhile", crr: base(phase(v1alpha1.ContainerRecreateRequestRecreating),
			states(v1alpha1.ContainerRecreateRequestSucceeded, v1alpha1.ContainerRecreateRequestSucceeded)), pod: nil,
			want: Action{Phase: v1alpha1.ContainerRecreateRequestCompleted}},
		{name: "a blocker fails a request the daemon is still at", crr: base(phase(v1alpha1.ContainerRecreateRequestRecreating),
			states(v1alpha1.ContainerRecreateRequestSucceeded, v1alpha1.ContainerRecreateRequestRecreating)), pod: nil,
			want: Action{Phase: v1alpha1.ContainerRecreateRequestFailed}, msg: "no longer exists"},
		{name: "finished: release", crr: base(done(time.Second, nil)), pod: pod, want: Action{Release: true}},
		{name: "finished, released, TTL ahead", crr: base(done(time.Second, ptr.To[int32](60)),
			func(c *v1alpha1.ContainerRecreateRequest) {
				delete(c.Labels, v1alpha1.ContainerRecreateRequestActiveKey)
			}), pod: pod,
			want: Action{RequeueAfter: 59 * time.Second}},
		{name: "finished past TTL: delete", crr: base(done(time.Minute, ptr.To[int32](60)),
			func(c *v1alpha1.ContainerRecreateRequest) {
				delete(c.Labels, v1alpha1.ContainerRecreateRequestActiveKey)
			}), pod: nil,
			want: Action{Delete: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Decide(tc.crr, tc.pod, now)
			msg := got.Message
			got.Message = ""
			if got != tc.want {
				t.Errorf("Decide = %+v, want %+v", got, tc.want)
			}
			if !strings.Contains(msg, tc.msg) {
				t.Errorf("message %q does not mention %q", msg, tc.msg)
			}
			if got.Phase != "" && recreaterequest.PhaseWriter(string(tc.crr.Status.Phase), string(got.Phase)) != recreaterequest.Controller {
				t.Errorf("the controller moves the phase %q → %q, which is not its move", tc.crr.Status.Phase, got.Phase)
			}
		})
	}
}
