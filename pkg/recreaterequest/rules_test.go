package recreaterequest

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func request(mut ...func(*v1alpha1.ContainerRecreateRequest)) *v1alpha1.ContainerRecreateRequest {
	r := &v1alpha1.ContainerRecreateRequest{
		ObjectMeta: metav1.ObjectMeta{Name: "r", CreationTimestamp: metav1.NewTime(now.Add(-10 * time.Second)),
			Labels: map[string]string{v1alpha1.ContainerRecreateRequestPodUIDKey: "uid-1"}},
		Spec: v1alpha1.ContainerRecreateRequestSpec{PodName: "web-0"},
	}
	for _, m := range mut {
		m(r)
	}
	return r
}

func TestBlocker(t *testing.T) {
	running := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", UID: "uid-1"}, Status: corev1.PodStatus{Phase: corev1.PodRunning}}
	podWith := func(mut func(*corev1.Pod)) *corev1.Pod {
		p := running.DeepCopy()
		mut(p)
		return p
	}
	deadline := func(s int64) func(*v1alpha1.ContainerRecreateRequest) {
		return func(r *v1alpha1.ContainerRecreateRequest) { r.Spec.ActiveDeadlineSeconds = &s }
	}
	for _, tc := range []struct {
		name     string
		req      *v1alpha1.ContainerRecreateRequest
		pod      *corev1.Pod
		want     string // substring; "" for none
		wantLeft time.Duration
	}{
		{name: "running pod, no deadline", req: request(), pod: running},
		{name: "deadline ahead", req: request(deadline(30)), pod: running, wantLeft: 20 * time.Second},
		{name: "deadline reached", req: request(deadline(10)), pod: running, want: "activeDeadlineSeconds (10s)"},
		{name: "pod gone", req: request(), pod: nil, want: "pod web-0 no longer exists"},
		{name: "pod replaced", req: request(), pod: podWith(func(p *corev1.Pod) { p.UID = "uid-2" }), want: "its UID is uid-2, the request is for uid-1"},
		{name: "request without a recorded UID takes any pod of the name", req: request(func(r *v1alpha1.ContainerRecreateRequest) {
			delete(r.Labels, v1alpha1.ContainerRecreateRequestPodUIDKey)
		}), pod: podWith(func(p *corev1.Pod) { p.UID = "uid-2" })},
		{name: "pod being deleted", req: request(), pod: podWith(func(p *corev1.Pod) { p.DeletionTimestamp = &metav1.Time{Time: now} }),
			want: "being deleted"},
		{name: "pod succeeded", req: request(), pod: podWith(func(p *corev1.Pod) { p.Status.Phase = corev1.PodSucceeded }),
			want: "has finished (phase Succeeded)"},
		{name: "a gone pod wins over the deadline", req: request(deadline(1)), pod: nil, want: "no longer exists"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, left := Blocker(tc.req, tc.pod, now)
			if (got == "") != (tc.want == "") || !strings.Contains(got, tc.want) {
				t.Errorf("Blocker = %q, want %q", got, tc.want)
			}
			if left != tc.wantLeft {
				t.Errorf("time to the deadline = %s, want %s", left, tc.wantLeft)
			}
		})
	}
}

func TestStartableAt(t *testing.T) {
	created := now.Add(-10 * time.Second)
	grace := func(s int64) func(*v1alpha1.ContainerRecreateRequest) {
		return func(r *v1alpha1.ContainerRecreateRequest) {
			r.Spec.Strategy = &v1alpha1.ContainerRecreateRequestStrategy{UnreadyGracePeriodSeconds: ptr.To(s)}
		}
	}
	marked := func(v string) func(*v1alpha1.ContainerRecreateRequest) {
		return func(r *v1alpha1.ContainerRecreateRequest) {
			r.Annotations = map[string]string{v1alpha1.ContainerRecreateRequestUnreadyAcquiredKey: v}
		}
	}
	for _, tc := range []struct {
		name   string
		req    *v1alpha1.ContainerRecreateRequest
		want   time.Time
		wantOK bool
	}{
		{name: "no strategy: at creation", req: request(), want: created, wantOK: true},
		{name: "strategy without grace: at creation", req: request(func(r *v1alpha1.ContainerRecreateRequest) {
			r.Spec.Strategy = &v1alpha1.ContainerRecreateRequestStrategy{}
		}), want: created, wantOK: true},
		{name: "grace, pod not made unready yet", req: request(grace(3))},
		{name: "grace counts from the unready mark", req: request(grace(3), marked(now.Add(-time.Second).Format(time.RFC3339))),
			want: now.Add(2 * time.Second), wantOK: true},
		{name: "unparsable mark counts from creation", req: request(grace(3), marked("yesterday")),
			want: created.Add(3 * time.Second), wantOK: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := StartableAt(tc.req)
			if ok != tc.wantOK || !got.Equal(tc.want) {
				t.Errorf("StartableAt = %s, %t; want %s, %t", got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func TestFinished(t *testing.T) {
	for phase, want := range map[v1alpha1.ContainerRecreateRequestPhase]bool{
		"": false, v1alpha1.ContainerRecreateRequestPending: false, v1alpha1.ContainerRecreateRequestRecreating: false,
		v1alpha1.ContainerRecreateRequestCompleted: true, v1alpha1.ContainerRecreateRequestFailed: true,
		v1alpha1.ContainerRecreateRequestSucceeded: true,
	} {
		if got := Finished(phase); got != want {
			t.Errorf("Finished(%q) = %t, want %t", phase, got, want)
		}
	}
}
