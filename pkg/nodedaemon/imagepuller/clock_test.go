package imagepuller_test

import (
	"strings"
	"testing"
	"time"

	testingclock "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/internal/fakecri"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagepuller"
)

// With a fake clock the backoff between attempts is exact: the retry waits
// until the clock passes the (jittered, at most un-jittered) delay.
func TestBackoffWaitsOnClock(t *testing.T) {
	srv, client := startRuntime(t)
	srv.SetPullBehavior("flaky:1", fakecri.PullBehavior{FailFirst: 1})
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := testingclock.NewFakeClock(start)
	m, _ := newManager(t, client, imagepuller.Options{Clock: clk, Backoff: imagepuller.Backoff{Initial: time.Minute, Max: time.Hour}})

	m.Sync(map[string]imagepuller.Task{"flaky:1": {Image: "flaky:1", Version: 1}})
	st := waitStatus(t, m, "flaky:1", "retrying", func(s imagepuller.Status) bool {
		return strings.HasPrefix(s.Message, "attempt 1 of 4 failed, retrying in ")
	})
	if st.Phase != imagepuller.PhasePulling || st.Attempts != 1 || !st.StartTime.Equal(start) {
		t.Errorf("during backoff: %+v, want Pulling after 1 attempt, started at %v", st, start)
	}
	// The attempt's timeout timer is gone once it failed; the one waiter
	// left is the backoff.
	waitFor(t, "the backoff timer", func() bool { return clk.Waiters() == 1 })

	// Jitter shortens the minute by at most a fifth: 47s is not enough.
	clk.Step(47 * time.Second)
	if clk.Waiters() != 1 || srv.PullAttempts("flaky:1") != 1 {
		t.Fatalf("retried before the backoff elapsed (waiters %d, pulls %d)", clk.Waiters(), srv.PullAttempts("flaky:1"))
	}
	clk.Step(13 * time.Second)
	st = waitFinished(t, m, "flaky:1")
	if st.Phase != imagepuller.PhaseSucceeded || st.Attempts != 2 || !st.CompletionTime.Equal(start.Add(time.Minute)) {
		t.Errorf("after the backoff: %+v, want Succeeded on attempt 2 at %v", st, start.Add(time.Minute))
	}
}

// The attempt timeout runs on the Manager's clock too.
func TestTimeoutOnClock(t *testing.T) {
	srv, client := startRuntime(t)
	srv.SetPullBehavior("huge:1", fakecri.PullBehavior{Latency: time.Hour})
	clk := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	m, _ := newManager(t, client, imagepuller.Options{Clock: clk})

	m.Sync(map[string]imagepuller.Task{"huge:1": {Image: "huge:1", Version: 1, Timeout: 10 * time.Minute, BackoffLimit: ptr.To[int32](0)}})
	waitFor(t, "the pull to reach the runtime", func() bool { return runningPulls(srv) == 1 && clk.Waiters() == 1 })
	clk.Step(10*time.Minute - time.Second)
	if st, _ := m.Status("huge:1"); st.Phase != imagepuller.PhasePulling {
		t.Fatalf("before the timeout: %+v", st)
	}
	clk.Step(time.Second)
	st := waitFinished(t, m, "huge:1")
	if want := "pull failed after 1 attempt: timed out after 10m0s"; st.Phase != imagepuller.PhaseFailed || st.Message != want {
		t.Errorf("status = %+v, want Failed with %q", st, want)
	}
	waitFor(t, "the runtime to see the pull canceled", func() bool { return runningPulls(srv) == 0 })
}

// The active deadline ends a task between attempts too: the backoff is cut
// to the deadline, and the task fails there with the last error.
func TestActiveDeadlineBetweenAttempts(t *testing.T) {
	srv, client := startRuntime(t)
	srv.SetPullBehavior("flaky:1", fakecri.PullBehavior{FailFirst: 10, Message: "503 Service Unavailable"})
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := testingclock.NewFakeClock(start)
	m, _ := newManager(t, client, imagepuller.Options{Clock: clk, Backoff: imagepuller.Backoff{Initial: time.Minute, Max: time.Hour}})

	m.Sync(map[string]imagepuller.Task{"flaky:1": {Image: "flaky:1", Version: 1, ActiveDeadline: 90 * time.Second}})
	waitStatus(t, m, "flaky:1", "retrying after attempt 1", func(s imagepuller.Status) bool {
		return strings.HasPrefix(s.Message, "attempt 1 of 4 failed")
	})
	waitFor(t, "the first backoff timer", func() bool { return clk.Waiters() == 1 })
	clk.Step(time.Minute)
	st := waitStatus(t, m, "flaky:1", "retrying after attempt 2", func(s imagepuller.Status) bool {
		return strings.HasPrefix(s.Message, "attempt 2 of 4 failed")
	})
	// The second backoff (about two minutes) is cut to the 30s left.
	if !strings.HasPrefix(st.Message, "attempt 2 of 4 failed, retrying in 30s: ") {
		t.Errorf("message = %q, want the wait cut to the deadline", st.Message)
	}
	waitFor(t, "the second backoff timer", func() bool { return clk.Waiters() == 1 })
	clk.Step(30 * time.Second)
	st = waitFinished(t, m, "flaky:1")
	want := `active deadline of 1m30s exceeded after 2 attempts: failed to pull and unpack image "docker.io/library/flaky:1": 503 Service Unavailable`
	if st.Phase != imagepuller.PhaseFailed || st.Attempts != 2 || st.Message != want || !st.CompletionTime.Equal(start.Add(90*time.Second)) {
		t.Errorf("status = %+v,\nwant Failed at %v with %q", st, start.Add(90*time.Second), want)
	}
	if n := srv.PullAttempts("flaky:1"); n != 2 {
		t.Errorf("runtime saw %d pulls, want 2", n)
	}
}
