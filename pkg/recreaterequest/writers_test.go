package recreaterequest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

func TestPhaseWriter(t *testing.T) {
	const (
		none       = ""
		pending    = "Pending"
		recreating = "Recreating"
		completed  = "Completed"
		failed     = "Failed"
		succeeded  = "Succeeded"
	)
	for _, tc := range []struct {
		from, to string
		want     Writer
	}{
		{none, pending, Controller},
		{none, recreating, Daemon}, // the daemon may take a request the controller has not marked yet
		{pending, recreating, Daemon},
		{recreating, completed, Controller},
		{none, failed, Controller},
		{pending, failed, Controller},
		{recreating, failed, Controller},
		// nobody's moves
		{pending, pending, Nobody},
		{pending, none, Nobody},
		{recreating, pending, Nobody},
		{pending, completed, Nobody}, // completes only from Recreating: the daemon must have taken it
		{none, completed, Nobody},
		{recreating, succeeded, Nobody},
		{completed, failed, Nobody}, // a finished request stays finished
		{failed, recreating, Nobody},
		{completed, recreating, Nobody},
		{recreating, "Bogus", Nobody},
	} {
		if got := PhaseWriter(tc.from, tc.to); got != tc.want {
			t.Errorf("PhaseWriter(%q, %q) = %s, want %s", tc.from, tc.to, got, tc.want)
		}
	}
}

// Each writer's patch holds the resourceVersion it decided on and its own fields only.
func TestPatches(t *testing.T) {
	read := &v1alpha1.ContainerRecreateRequest{
		ObjectMeta: metav1.ObjectMeta{Name: "crr", ResourceVersion: "42",
			Labels: map[string]string{v1alpha1.ContainerRecreateRequestActiveKey: "true"}},
		Spec: v1alpha1.ContainerRecreateRequestSpec{PodName: "web", Containers: []v1alpha1.ContainerRecreateRequestContainer{
			{Name: "app"}, {Name: "sidecar", StatusContext: &v1alpha1.ContainerRecreateRequestContainerContext{ContainerID: "c://1"}}}},
		Status: v1alpha1.ContainerRecreateRequestStatus{Phase: v1alpha1.ContainerRecreateRequestRecreating, Message: "old"},
	}
	done := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	for _, tc := range []struct {
		name  string
		patch []byte
		want  string
	}{
		{"controller completes", ControllerStatusPatch(read, v1alpha1.ContainerRecreateRequestCompleted, "", &done),
			`{"metadata":{"resourceVersion":"42"},"status":{"phase":"Completed","message":"","completionTime":"2026-01-02T03:04:05Z"}}`},
		{"controller marks Pending", ControllerStatusPatch(read, v1alpha1.ContainerRecreateRequestPending, "", nil),
			`{"metadata":{"resourceVersion":"42"},"status":{"phase":"Pending","message":""}}`},
		{"daemon takes the request", DaemonStatusPatch(read, v1alpha1.ContainerRecreateRequestRecreating,
			[]v1alpha1.ContainerRecreateRequestContainerRecreateState{{Name: "app", Phase: v1alpha1.ContainerRecreateRequestPending}}),
			`{"metadata":{"resourceVersion":"42"},"status":{"phase":"Recreating","containerRecreateStates":[{"name":"app","phase":"Pending"}]}}`},
		{"daemon writes states only", DaemonStatusPatch(read, "",
			[]v1alpha1.ContainerRecreateRequestContainerRecreateState{{Name: "app", Phase: v1alpha1.ContainerRecreateRequestSucceeded, IsKilled: true}}),
			`{"metadata":{"resourceVersion":"42"},"status":{"containerRecreateStates":[{"name":"app","phase":"Succeeded","isKilled":true}]}}`},
		{"daemon records a context", StatusContextPatch(read, map[string]v1alpha1.ContainerRecreateRequestContainerContext{"app": {ContainerID: "c://2", RestartCount: 3}}),
			`{"metadata":{"resourceVersion":"42"},"spec":{"containers":[{"name":"app","statusContext":{"containerID":"c://2","restartCount":3}},{"name":"sidecar","statusContext":{"containerID":"c://1","restartCount":0}}]}}`},
		{"controller marks the pod unready", UnreadyAcquiredPatch(read, "2026-01-02T03:04:05Z"),
			`{"metadata":{"resourceVersion":"42","annotations":{"crr.apps.kruise.io/unready-acquired":"2026-01-02T03:04:05Z"}}}`},
		{"controller releases, unconditionally", ReleasePatch(),
			`{"metadata":{"labels":{"crr.apps.kruise.io/active":null}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got, want any
			if err := json.Unmarshal(tc.patch, &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tc.want), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("patch (-want +got):\n%s\n%s", diff, tc.patch)
			}
		})
	}
	if read.Spec.Containers[0].StatusContext != nil {
		t.Error("StatusContextPatch changed the request it was given")
	}
}
