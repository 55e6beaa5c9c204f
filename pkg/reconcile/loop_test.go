package reconcile

import (
	"context"
	"errors"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/workqueue"
)

// newTestLoop is a loop whose failed keys back off for an hour, so what is queued
// right after a failure can be read off the queue's length without racing a timer.
func newTestLoop(sync SyncFunc) *Loop {
	l := NewLoop("test", sync)
	l.queue = workqueue.NewTypedRateLimitingQueue(workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Hour, time.Hour))
	return l
}

func object(generation int64, labels map[string]string, phase string) *corev1.Namespace {
	return &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{Name: "x", Generation: generation, Labels: labels},
		Status:     corev1.NamespaceStatus{Phase: corev1.NamespacePhase(phase)},
	}
}

func TestEnqueueUpdateKeepsBackoff(t *testing.T) {
	old := object(1, map[string]string{"a": "1"}, "Active")
	cases := []struct {
		name       string
		cur        *corev1.Namespace
		failedOnce bool
		wantQueued bool
	}{
		{"status-only write while backing off waits for the backoff", object(1, map[string]string{"a": "1"}, "Terminating"), true, false},
		{"status-only write without a failure is queued", object(1, map[string]string{"a": "1"}, "Terminating"), false, true},
		{"spec change while backing off is queued", object(2, map[string]string{"a": "1"}, "Active"), true, true},
		{"label change while backing off is queued", object(1, map[string]string{"a": "2"}, "Active"), true, true},
		{"object without generation is always queued", object(0, nil, "Terminating"), true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := newTestLoop(func(context.Context, string) (time.Duration, error) { return 0, errors.New("refused") })
			defer l.queue.ShutDown()
			prev := old
			if tc.cur.Generation == 0 {
				prev = object(0, nil, "Active")
			}
			if tc.failedOnce {
				l.Add("x")
				l.processNext(context.Background())
				if n := l.queue.NumRequeues("x"); n != 1 {
					t.Fatalf("after a failed sync NumRequeues = %d, want 1", n)
				}
			}
			l.EnqueueUpdate(prev, tc.cur)
			if got := l.queue.Len() == 1; got != tc.wantQueued {
				t.Errorf("queued now = %v, want %v", got, tc.wantQueued)
			}
		})
	}
}

// A sync that succeeds forgets the key's failures: later status writes wake it again.
func TestSuccessfulSyncEndsBackoff(t *testing.T) {
	fail := true
	l := newTestLoop(func(context.Context, string) (time.Duration, error) {
		if fail {
			return 0, errors.New("refused")
		}
		return 0, nil
	})
	defer l.queue.ShutDown()
	l.Add("x")
	l.processNext(context.Background())
	fail = false
	l.Add("x") // a spec change
	l.processNext(context.Background())
	l.EnqueueUpdate(object(1, nil, "Active"), object(1, nil, "Terminating"))
	if l.queue.Len() != 1 {
		t.Fatalf("status write after a successful sync not queued")
	}
}

// A status-only update that arrives while a retried sync runs, and is held back because
// the key is still backing off, is looked at once that sync succeeds: it may be the very
// status the sync wrote, and the next look would otherwise be the sync's requeueAfter
// (the node daemon's ContainerRecreateRequest waited five minutes so).
func TestUpdateDuringSucceedingRetryIsNotLost(t *testing.T) {
	var l *Loop
	calls := 0
	l = newTestLoop(func(context.Context, string) (time.Duration, error) {
		calls++
		if calls == 1 {
			return 0, errors.New("refused")
		}
		l.EnqueueUpdate(object(1, nil, "Active"), object(1, nil, "Terminating"))
		return time.Hour, nil
	})
	defer l.queue.ShutDown()
	l.Add("x")
	l.processNext(context.Background()) // fails: backing off for an hour
	l.Add("x")                          // another change: the retry runs now, still backing off
	l.processNext(context.Background())
	if l.queue.Len() != 1 {
		t.Fatalf("the update written during the successful retry is not queued (queue length %d)", l.queue.Len())
	}
}

// An update held back while the key waited out its backoff is in the cache the retry
// reads: a retry that succeeds does not sync once more for it.
func TestUpdateBeforeSucceedingRetryCausesNoExtraSync(t *testing.T) {
	calls := 0
	l := newTestLoop(func(context.Context, string) (time.Duration, error) {
		calls++
		if calls == 1 {
			return 0, errors.New("refused")
		}
		return 0, nil
	})
	defer l.queue.ShutDown()
	l.Add("x")
	l.processNext(context.Background()) // fails: backing off for an hour
	l.EnqueueUpdate(object(1, nil, "Active"), object(1, nil, "Terminating"))
	l.Add("x") // another change: the retry runs now
	l.processNext(context.Background())
	if l.queue.Len() != 0 {
		t.Fatalf("queue length %d after the successful retry, want 0: an update it had read made another sync", l.queue.Len())
	}
}
