package watchbuffer

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

func event(i int) watch.Event {
	return watch.Event{Type: watch.Added, Object: &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprint(i)}}}
}

// send delivers n events into the unbuffered fake, failing the test if the
// buffered watch does not take them while nobody reads it.
func send(t *testing.T, src *watch.FakeWatcher, from, n int) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := from; i < from+n; i++ {
			src.Add(event(i).Object)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("the source blocked with a reader that had not read yet")
	}
}

func receive(t *testing.T, w watch.Interface) (watch.Event, bool) {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		return ev, ok
	case <-time.After(10 * time.Second):
		t.Fatalf("no event and no close")
		return watch.Event{}, false
	}
}

func TestSlowReaderDoesNotBlockTheSource(t *testing.T) {
	src := watch.NewFake()
	w := Wrap(src, 3000, nil)
	defer w.Stop()
	send(t, src, 0, 2500) // the fake's channel is unbuffered: only an eager reader lets this finish
	send(t, src, 2500, 500)
	for i := 0; i < 3000; i++ {
		ev, ok := receive(t, w)
		if !ok {
			t.Fatalf("closed after %d events, want 3000", i)
		}
		if got := ev.Object.(*corev1.ConfigMap).Name; got != fmt.Sprint(i) {
			t.Fatalf("event %d is %s: order lost", i, got)
		}
	}
}

func TestOverflowEndsTheWatchAndItsSource(t *testing.T) {
	src := watch.NewFake()
	overflows := make(chan struct{}, 1)
	w := Wrap(src, 10, func() { overflows <- struct{}{} })
	send(t, src, 0, 11)
	n := 0
	for {
		_, ok := receive(t, w)
		if !ok {
			break
		}
		n++
	}
	if n > 10 {
		t.Fatalf("delivered %d events past a capacity of 10", n)
	}
	if !src.IsStopped() {
		t.Fatalf("the source was not stopped after the overflow")
	}
	select {
	case <-overflows:
	default:
		t.Fatalf("the overflow was not reported")
	}
}

func TestSourceEndDeliversWhatWasQueued(t *testing.T) {
	src := watch.NewFake()
	w := Wrap(src, 100, nil)
	send(t, src, 0, 5)
	src.Stop()
	for i := 0; i < 5; i++ {
		if _, ok := receive(t, w); !ok {
			t.Fatalf("closed after %d of 5 queued events", i)
		}
	}
	if _, ok := receive(t, w); ok {
		t.Fatalf("an event after the source ended")
	}
}

func TestStopEndsTheSource(t *testing.T) {
	src := watch.NewFake()
	w := Wrap(src, 100, nil)
	send(t, src, 0, 3)
	w.Stop()
	w.Stop() // idempotent, as watch.Interface callers expect
	for {
		if _, ok := receive(t, w); !ok {
			break
		}
	}
	if !src.IsStopped() {
		t.Fatalf("Stop did not reach the source")
	}
}

func TestQueueCompactsWhenMostlyConsumed(t *testing.T) {
	var q queue
	for i := 0; i < 5000; i++ {
		q.push(event(i))
	}
	for i := 0; i < 3000; i++ {
		if got := q.peek().Object.(*corev1.ConfigMap).Name; got != fmt.Sprint(i) {
			t.Fatalf("pop %d gave %s", i, got)
		}
		q.pop()
	}
	if q.len() != 2000 || q.head > 1024 {
		t.Fatalf("len %d head %d: want 2000 queued and the consumed front reclaimed", q.len(), q.head)
	}
	if got := q.peek().Object.(*corev1.ConfigMap).Name; got != "3000" {
		t.Fatalf("after compaction the front is %s, want 3000", got)
	}
}
