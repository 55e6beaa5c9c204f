package expectations

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestScale(t *testing.T) {
	now := time.Unix(1000, 0)
	s := NewScale()
	s.now = func() time.Time { return now }

	if !s.Satisfied("ns/a") {
		t.Fatal("no expectations must be satisfied")
	}
	s.Expect("ns/a", Create, "p1", "p2")
	s.Expect("ns/a", Delete, "p0")
	if s.Satisfied("ns/a") {
		t.Fatal("pending creations reported satisfied")
	}
	s.Observe("ns/a", Create, "p1")
	s.Observe("ns/a", Create, "p2")
	if s.Satisfied("ns/a") {
		t.Fatal("pending deletion reported satisfied")
	}
	s.Observe("ns/a", Delete, "p0")
	if !s.Satisfied("ns/a") {
		t.Fatal("all observed but not satisfied")
	}
	// Observing something never expected is harmless.
	s.Observe("ns/a", Delete, "other")

	// Expectations lapse after Timeout.
	s.Expect("ns/b", Create, "lost")
	now = now.Add(Timeout - time.Second)
	if s.Satisfied("ns/b") {
		t.Fatal("lapsed too early")
	}
	now = now.Add(2 * time.Second)
	if !s.Satisfied("ns/b") {
		t.Fatal("did not lapse after Timeout")
	}
	s.Expect("ns/c", Create, "x")
	s.Forget("ns/c")
	if !s.Satisfied("ns/c") {
		t.Fatal("forgotten key still pending")
	}
}

func TestResourceVersion(t *testing.T) {
	now := time.Unix(1000, 0)
	r := NewResourceVersion()
	r.now = func() time.Time { return now }
	written := &metav1.ObjectMeta{UID: "u1", ResourceVersion: "20"}
	r.Expect(written)

	stale := &metav1.ObjectMeta{UID: "u1", ResourceVersion: "19"}
	if r.Observe(stale) {
		t.Fatal("older cached version reported fresh")
	}
	if !r.Observe(&metav1.ObjectMeta{UID: "u1", ResourceVersion: "21"}) {
		t.Fatal("newer cached version reported stale")
	}
	if !r.Observe(stale) {
		t.Fatal("expectation not forgotten after being met")
	}
	if !r.Observe(&metav1.ObjectMeta{UID: "other", ResourceVersion: "1"}) {
		t.Fatal("untracked object reported stale")
	}
	r.Expect(written)
	now = now.Add(Timeout + time.Second)
	if !r.Observe(stale) {
		t.Fatal("expectation did not lapse after Timeout")
	}
}
