package imagepuller_test

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	corev1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/internal/fakecri"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagepuller"
)

func TestPullSucceeds(t *testing.T) {
	srv, client := startRuntime(t)
	m, changes := newManager(t, client, imagepuller.Options{})

	m.Sync(map[string]imagepuller.Task{"nginx:1.9.1": {Image: "nginx:1.9.1", Version: 3}})
	st := waitFinished(t, m, "nginx:1.9.1")

	if st.Phase != imagepuller.PhaseSucceeded || st.Progress != 100 || st.Attempts != 1 || st.Version != 3 || st.Message != "" {
		t.Errorf("status = %+v, want Succeeded, progress 100, 1 attempt, version 3, no message", st)
	}
	imgs := srv.Images()
	if len(imgs) != 1 || imgs[0].Ref != "docker.io/library/nginx:1.9.1" {
		t.Fatalf("runtime images = %+v, want nginx:1.9.1 only", imgs)
	}
	if st.ImageID != imgs[0].ID {
		t.Errorf("imageID = %q, want the runtime's %q", st.ImageID, imgs[0].ID)
	}
	if st.StartTime.IsZero() || st.CompletionTime.Before(st.StartTime) {
		t.Errorf("start %v, completion %v: want both set, in order", st.StartTime, st.CompletionTime)
	}
	if n := srv.PullAttempts("nginx:1.9.1"); n != 1 {
		t.Errorf("runtime saw %d pulls, want 1", n)
	}
	if p := srv.Pulls()[0]; p.Image != "nginx:1.9.1" || p.Auth != nil {
		t.Errorf("pull record = %+v, want the reference as given and no credential", p)
	}
	if changes.count("nginx:1.9.1") == 0 {
		t.Error("onChange never called")
	}
	if all := m.Statuses(); len(all) != 1 || all["nginx:1.9.1"] != st {
		t.Errorf("Statuses() = %+v, want only %+v", all, st)
	}
}

func TestPullPolicy(t *testing.T) {
	srv, client := startRuntime(t)
	present, err := srv.AddImage("busybox:1.36")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := newManager(t, client, imagepuller.Options{})

	// The documented default, IfNotPresent, takes the image on the node.
	m.Sync(map[string]imagepuller.Task{"default": {Image: "busybox:1.36", Version: 1}})
	st := waitFinished(t, m, "default")
	if st.Phase != imagepuller.PhaseSucceeded || st.Attempts != 0 || st.ImageID != present.ID || st.Progress != 100 {
		t.Errorf("present image: status = %+v, want Succeeded without attempts, imageID %q", st, present.ID)
	}
	if n := srv.PullAttempts("busybox:1.36"); n != 0 {
		t.Fatalf("runtime saw %d pulls of a present image, want 0", n)
	}

	// Always pulls anyway.
	m.Sync(map[string]imagepuller.Task{
		"default": {Image: "busybox:1.36", Version: 1},
		"always":  {Image: "busybox:1.36", Version: 1, PullPolicy: imagepuller.PullAlways},
	})
	st = waitFinished(t, m, "always")
	if st.Phase != imagepuller.PhaseSucceeded || st.Attempts != 1 || st.ImageID != present.ID {
		t.Errorf("Always: status = %+v, want Succeeded after 1 attempt, imageID %q", st, present.ID)
	}
	if n := srv.PullAttempts("busybox:1.36"); n != 1 {
		t.Errorf("runtime saw %d pulls, want 1 (Always only)", n)
	}
}

func TestPullFailsAfterBackoffLimit(t *testing.T) {
	srv, client := startRuntime(t)
	srv.SetPullBehavior("app:1", fakecri.PullBehavior{Message: "unexpected status code 503 Service Unavailable", Code: codes.Unavailable})
	m, _ := newManager(t, client, imagepuller.Options{})

	m.Sync(map[string]imagepuller.Task{"app:1": {Image: "app:1", Version: 1, BackoffLimit: ptr.To[int32](3)}})
	st := waitFinished(t, m, "app:1")

	want := `pull failed after 4 attempts: failed to pull and unpack image "docker.io/library/app:1": unexpected status code 503 Service Unavailable`
	if st.Phase != imagepuller.PhaseFailed || st.Attempts != 4 || st.Message != want || st.Progress != 0 || st.ImageID != "" {
		t.Errorf("status = %+v,\nwant Failed after 4 attempts with message %q", st, want)
	}
	if st.CompletionTime.IsZero() {
		t.Error("no completion time on a failed task")
	}
	if n := srv.PullAttempts("app:1"); n != 4 {
		t.Errorf("runtime saw %d pulls, want backoffLimit+1 = 4", n)
	}
}

func TestPullNoRetryWithBackoffLimitZero(t *testing.T) {
	srv, client := startRuntime(t)
	srv.SetPullBehavior("ghost:1", fakecri.PullBehavior{NotFound: true})
	m, _ := newManager(t, client, imagepuller.Options{})

	m.Sync(map[string]imagepuller.Task{"ghost:1": {Image: "ghost:1", Version: 1, BackoffLimit: ptr.To[int32](0)}})
	st := waitFinished(t, m, "ghost:1")
	if st.Phase != imagepuller.PhaseFailed || st.Attempts != 1 ||
		!strings.HasPrefix(st.Message, "pull failed after 1 attempt: ") || !strings.HasSuffix(st.Message, "not found") {
		t.Errorf("status = %+v, want Failed after 1 attempt with the runtime's not-found message", st)
	}
	if n := srv.PullAttempts("ghost:1"); n != 1 {
		t.Errorf("runtime saw %d pulls, want 1", n)
	}
}

func TestPullSucceedsAfterTransientFailures(t *testing.T) {
	srv, client := startRuntime(t)
	srv.SetPullBehavior("flaky:2", fakecri.PullBehavior{FailFirst: 2})
	m, _ := newManager(t, client, imagepuller.Options{})

	m.Sync(map[string]imagepuller.Task{"flaky:2": {Image: "flaky:2", Version: 1}})
	st := waitFinished(t, m, "flaky:2")
	if st.Phase != imagepuller.PhaseSucceeded || st.Attempts != 3 || st.Message != "" || st.ImageID == "" {
		t.Errorf("status = %+v, want Succeeded on the 3rd attempt, message cleared, imageID set", st)
	}
	pulls := srv.Pulls()
	if len(pulls) != 3 || pulls[0].Err == nil || pulls[1].Err == nil || pulls[2].Err != nil {
		t.Errorf("runtime saw %+v, want two failures then a success", pulls)
	}
}

func TestAttemptTimeout(t *testing.T) {
	srv, client := startRuntime(t)
	srv.SetPullBehavior("huge:1", fakecri.PullBehavior{Latency: time.Hour})
	m, _ := newManager(t, client, imagepuller.Options{})

	m.Sync(map[string]imagepuller.Task{"huge:1": {Image: "huge:1", Version: 1, Timeout: 100 * time.Millisecond, BackoffLimit: ptr.To[int32](1)}})
	st := waitFinished(t, m, "huge:1")
	if want := "pull failed after 2 attempts: timed out after 100ms"; st.Phase != imagepuller.PhaseFailed || st.Attempts != 2 || st.Message != want {
		t.Errorf("status = %+v, want Failed with %q", st, want)
	}
	// The runtime saw each attempt canceled, not left running for an hour.
	waitFor(t, "the runtime to end both pulls", func() bool {
		return len(srv.Pulls()) == 2 && runningPulls(srv) == 0
	})
	for _, p := range srv.Pulls() {
		if p.Err == nil {
			t.Errorf("pull %+v succeeded, want it canceled", p)
		}
	}
}

func TestActiveDeadline(t *testing.T) {
	srv, client := startRuntime(t)
	srv.SetPullBehavior("slow:1", fakecri.PullBehavior{Latency: time.Hour})
	m, _ := newManager(t, client, imagepuller.Options{})

	// The deadline cuts the first attempt short, long before its timeout.
	m.Sync(map[string]imagepuller.Task{"slow:1": {Image: "slow:1", Version: 1, ActiveDeadline: 150 * time.Millisecond, BackoffLimit: ptr.To[int32](5)}})
	st := waitFinished(t, m, "slow:1")
	if want := "active deadline of 150ms exceeded after 1 attempt: timed out after 150ms"; st.Phase != imagepuller.PhaseFailed || st.Attempts != 1 || st.Message != want {
		t.Errorf("status = %+v, want Failed with %q", st, want)
	}
	if n := srv.PullAttempts("slow:1"); n != 1 {
		t.Errorf("runtime saw %d pulls, want 1", n)
	}
}

func TestRemovingKeyCancelsPull(t *testing.T) {
	srv, client := startRuntime(t)
	srv.SetPullBehavior("big:1", fakecri.PullBehavior{Latency: time.Hour})
	m, changes := newManager(t, client, imagepuller.Options{})

	m.Sync(map[string]imagepuller.Task{
		"big:1":   {Image: "big:1", Version: 1},
		"small:1": {Image: "small:1", Version: 1},
	})
	waitStatus(t, m, "big:1", "Pulling", func(s imagepuller.Status) bool { return s.Phase == imagepuller.PhasePulling })
	waitFinished(t, m, "small:1")
	waitFor(t, "the runtime to serve the pull", func() bool { return runningPulls(srv) == 1 })
	before := changes.count("big:1")

	m.Sync(map[string]imagepuller.Task{"small:1": {Image: "small:1", Version: 1}})
	if st, ok := m.Status("big:1"); ok {
		t.Errorf("removed key still has status %+v", st)
	}
	if changes.count("big:1") <= before {
		t.Error("onChange not called for the removed key")
	}
	waitFor(t, "the runtime to see the pull canceled", func() bool { return runningPulls(srv) == 0 })
	for _, p := range srv.Pulls() {
		if p.Ref == "docker.io/library/big:1" && status(p.Err) != codes.Canceled {
			t.Errorf("pull of big:1 ended with %v, want Canceled", p.Err)
		}
	}
	if st, _ := m.Status("small:1"); st.Phase != imagepuller.PhaseSucceeded {
		t.Errorf("the remaining task's result was lost: %+v", st)
	}
}

func TestSyncIsIdempotent(t *testing.T) {
	srv, client := startRuntime(t)
	m, _ := newManager(t, client, imagepuller.Options{})

	desired := map[string]imagepuller.Task{"nginx:1": {Image: "nginx:1", Version: 1, PullPolicy: imagepuller.PullAlways}}
	m.Sync(desired)
	first := waitFinished(t, m, "nginx:1")
	for range 3 {
		m.Sync(desired)
	}
	// Fields other than the version do not restart a task either.
	m.Sync(map[string]imagepuller.Task{"nginx:1": {Image: "nginx:1", Version: 1, PullPolicy: imagepuller.PullAlways, BackoffLimit: ptr.To[int32](9)}})
	if st, _ := m.Status("nginx:1"); st != first {
		t.Errorf("status changed by repeated Sync: %+v, was %+v", st, first)
	}
	if n := srv.PullAttempts("nginx:1"); n != 1 {
		t.Errorf("runtime saw %d pulls, want 1", n)
	}
}

func TestVersionBumpRepulls(t *testing.T) {
	srv, client := startRuntime(t)
	m, _ := newManager(t, client, imagepuller.Options{})
	task := imagepuller.Task{Image: "nginx:1", Version: 1, PullPolicy: imagepuller.PullAlways}

	m.Sync(map[string]imagepuller.Task{"nginx:1": task})
	if st := waitFinished(t, m, "nginx:1"); st.Version != 1 || st.Phase != imagepuller.PhaseSucceeded {
		t.Fatalf("v1: %+v", st)
	}

	// A finished task restarts.
	task.Version = 2
	m.Sync(map[string]imagepuller.Task{"nginx:1": task})
	st := waitStatus(t, m, "nginx:1", "Succeeded at version 2", func(s imagepuller.Status) bool {
		return s.Version == 2 && s.Phase == imagepuller.PhaseSucceeded
	})
	if st.Attempts != 1 {
		t.Errorf("v2: %+v, want a fresh task", st)
	}
	if n := srv.PullAttempts("nginx:1"); n != 2 {
		t.Errorf("runtime saw %d pulls, want 2", n)
	}

	// A running task is canceled and replaced: v3's pull hangs, v4's does not.
	srv.SetPullBehavior("nginx:1", fakecri.PullBehavior{Latency: time.Hour})
	task.Version = 3
	m.Sync(map[string]imagepuller.Task{"nginx:1": task})
	waitFor(t, "v3 pulling", func() bool { return runningPulls(srv) == 1 })
	srv.ClearPullBehaviors()
	task.Version = 4
	m.Sync(map[string]imagepuller.Task{"nginx:1": task})
	st = waitStatus(t, m, "nginx:1", "Succeeded at version 4", func(s imagepuller.Status) bool {
		return s.Version == 4 && s.Phase == imagepuller.PhaseSucceeded
	})
	waitFor(t, "v3's pull to end", func() bool { return runningPulls(srv) == 0 })
	pulls := srv.Pulls()
	if len(pulls) != 4 || status(pulls[2].Err) != codes.Canceled || pulls[3].Err != nil {
		t.Errorf("runtime saw %+v, want v3's pull canceled and v4's succeeding", pulls)
	}
	// v3's goroutine must not have overwritten v4's status on its way out.
	if again, _ := m.Status("nginx:1"); again != st {
		t.Errorf("status changed after v4 finished: %+v, was %+v", again, st)
	}
}

func TestWorkersLimit(t *testing.T) {
	srv, client := startRuntime(t)
	srv.SetPullBehavior("docker.io/library/img*", fakecri.PullBehavior{Latency: 150 * time.Millisecond})
	m, _ := newManager(t, client, imagepuller.Options{Workers: 2})

	desired := map[string]imagepuller.Task{}
	for _, tag := range []string{"1", "2", "3", "4", "5", "6"} {
		desired["img:"+tag] = imagepuller.Task{Image: "img:" + tag, Version: 1}
	}
	m.Sync(desired)
	// While two pulls run, the others wait for a worker.
	waitFor(t, "two pulls running and tasks waiting for a worker", func() bool {
		waiting := 0
		for _, st := range m.Statuses() {
			if st.Phase == imagepuller.PhaseWaiting && st.StartTime.IsZero() {
				waiting++
			}
		}
		return runningPulls(srv) == 2 && waiting > 0
	})
	for key := range desired {
		if st := waitFinished(t, m, key); st.Phase != imagepuller.PhaseSucceeded {
			t.Errorf("%s: %+v", key, st)
		}
	}

	// The runtime's own timestamps: no instant had more than two pulls in
	// flight, and two did run together.
	pulls := srv.Pulls()
	if len(pulls) != 6 {
		t.Fatalf("runtime saw %d pulls, want 6", len(pulls))
	}
	if got := maxOverlap(pulls); got != 2 {
		t.Errorf("at most %d pulls ran at once, want exactly 2", got)
	}
}

// maxOverlap is the largest number of pulls whose [Start, End) intervals
// share an instant.
func maxOverlap(pulls []fakecri.PullRecord) int {
	best := 0
	for _, p := range pulls {
		n := 0
		for _, q := range pulls {
			if !q.Start.After(p.Start) && q.End.After(p.Start) {
				n++
			}
		}
		best = max(best, n)
	}
	return best
}

func TestAuthPassedThrough(t *testing.T) {
	srv, client := startRuntime(t)
	m, _ := newManager(t, client, imagepuller.Options{})

	secret := &corev1.Secret{
		Type: corev1.SecretTypeDockerConfigJson,
		Data: map[string][]byte{corev1.DockerConfigJsonKey: []byte(`{"auths":{"registry.example.com":{"auth":"` +
			"dXNlcjpzM2NyZXQ=" + `"}}}`)}, // user:s3cret
	}
	image := "registry.example.com/team/app:v2"
	auths := imagepuller.AuthsFromSecrets(image, []*corev1.Secret{secret})
	sandbox := &runtimeapi.PodSandboxConfig{Metadata: &runtimeapi.PodSandboxMetadata{Name: "puller", Namespace: "kruise-system"}}
	m.Sync(map[string]imagepuller.Task{image: {Image: image, Version: 1, Auths: auths, SandboxConfig: sandbox}})
	if st := waitFinished(t, m, image); st.Phase != imagepuller.PhaseSucceeded {
		t.Fatalf("status = %+v", st)
	}
	pulls := srv.Pulls()
	if len(pulls) != 1 {
		t.Fatalf("runtime saw %d pulls, want 1", len(pulls))
	}
	want := fakecri.Auth{Username: "user", Password: "s3cret"}
	if got := pulls[0].Auth; got == nil || *got != want {
		t.Errorf("credential = %+v, want %+v", got, want)
	}
	if pulls[0].PodNamespace != "kruise-system" || pulls[0].PodName != "puller" {
		t.Errorf("sandbox metadata = %s/%s, want kruise-system/puller", pulls[0].PodNamespace, pulls[0].PodName)
	}
}

func TestCredentialsTriedInTurn(t *testing.T) {
	srv, client := startRuntime(t)
	srv.SetPullBehavior("private:1", fakecri.PullBehavior{FailFirst: 1, Message: "unexpected status code 401 Unauthorized"})
	m, _ := newManager(t, client, imagepuller.Options{})

	auths := []*runtimeapi.AuthConfig{
		{Username: "stale", Password: "x"},
		{Username: "fresh", Password: "y"},
	}
	m.Sync(map[string]imagepuller.Task{"private:1": {Image: "private:1", Version: 1, Auths: auths}})
	st := waitFinished(t, m, "private:1")
	// Both credentials belong to one attempt.
	if st.Phase != imagepuller.PhaseSucceeded || st.Attempts != 1 {
		t.Errorf("status = %+v, want Succeeded in one attempt", st)
	}
	pulls := srv.Pulls()
	if len(pulls) != 2 || pulls[0].Auth.Username != "stale" || pulls[1].Auth.Username != "fresh" {
		t.Errorf("runtime saw %+v, want the stale credential then the fresh one", pulls)
	}
}

func TestInvalidTaskFailsAtOnce(t *testing.T) {
	srv, client := startRuntime(t)
	m, _ := newManager(t, client, imagepuller.Options{})

	m.Sync(map[string]imagepuller.Task{"bad": {Image: "Bad Image", Version: 1}})
	st := waitFinished(t, m, "bad")
	if st.Phase != imagepuller.PhaseFailed || st.Attempts != 0 || !strings.HasPrefix(st.Message, "invalid task: ") {
		t.Errorf("status = %+v, want Failed without attempts", st)
	}
	if n := len(srv.Pulls()); n != 0 {
		t.Errorf("runtime saw %d pulls, want 0", n)
	}
}

func TestStop(t *testing.T) {
	srv, client := startRuntime(t)
	srv.SetPullBehavior("big:1", fakecri.PullBehavior{Latency: time.Hour})
	m, changes := newManager(t, client, imagepuller.Options{})

	m.Sync(map[string]imagepuller.Task{"big:1": {Image: "big:1", Version: 1}})
	waitFor(t, "the pull to start", func() bool { return runningPulls(srv) == 1 })
	m.Stop() // returns only once the task's goroutine is gone
	calls := changes.count("big:1")
	waitFor(t, "the runtime to see the pull canceled", func() bool { return runningPulls(srv) == 0 })
	m.Sync(map[string]imagepuller.Task{"other:1": {Image: "other:1", Version: 1}})
	if _, ok := m.Status("other:1"); ok {
		t.Error("Sync after Stop started a task")
	}
	if changes.count("big:1") != calls {
		t.Error("onChange called after Stop returned")
	}
	m.Stop() // idempotent
}

func TestNewManagerNeedsClient(t *testing.T) {
	if _, err := imagepuller.NewManager(t.Context(), nil, imagepuller.Options{}, nil); err == nil {
		t.Error("NewManager(nil client) succeeded")
	}
}
