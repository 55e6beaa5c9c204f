package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestCountEachSplitsOneReadByFilter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.log")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(path)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	line := func(ns, resource, sub, user string, sec int) string {
		return fmt.Sprintf(`{"verb":"create","user":{"username":%q},"userAgent":"x","objectRef":{"resource":%q,"subresource":%q,"namespace":%q},"requestReceivedTimestamp":%q}`+"\n",
			user, resource, sub, ns, at.Add(time.Duration(sec)*time.Second).Format(time.RFC3339Nano))
	}
	log := line("a", "pods", "", "system:serviceaccount:kruise-system:kruise-controller", 1) +
		line("a", "clonesets", "status", "system:serviceaccount:kruise-system:kruise-controller", 2) +
		line("b", "pods", "", "system:serviceaccount:kube-system:replicaset-controller", 3) +
		line("a", "pods", "", "system:kube-scheduler", 30) // after the window
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := r.CountEach(Filter{Namespace: "a", From: at, To: at.Add(10 * time.Second)}, Filter{Namespace: "b", From: at, To: at.Add(10 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name          string
		counts        Counts
		client, key   string
		want, wantAll int
	}{
		{"a: controller pods", got[0], "kruise-controller", "create pods", 1, 2},
		{"a: controller status", got[0], "kruise-controller", "create clonesets/status", 1, 2},
		{"b: replicaset controller", got[1], "kube-controller-manager/replicaset-controller", "create pods", 1, 1},
	} {
		if n := tc.counts[tc.client][tc.key]; n != tc.want {
			t.Errorf("%s: %s %q = %d, want %d", tc.name, tc.client, tc.key, n, tc.want)
		}
		if n := tc.counts.Total(); n != tc.wantAll {
			t.Errorf("%s: total %d, want %d", tc.name, n, tc.wantAll)
		}
	}
	// the log was read once: nothing is left for the next call
	again, err := r.CountEach(Filter{Namespace: "a", From: at, To: at.Add(time.Hour)})
	if err != nil || again[0].Total() != 0 {
		t.Errorf("second read: %v, %v; want nothing new", again, err)
	}
}

// A filter with a Code counts only the writes answered with it: the status writes a
// controller sent from a stale copy come back 409 Conflict.
func TestCountByResponseCode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.log")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(path)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	at := t0.Format(time.RFC3339Nano)
	line := func(code string) string {
		return `{"verb":"update","user":{"username":"system:serviceaccount:kruise-system:kruise-controller"},"objectRef":{"resource":"daemonsets","subresource":"status","namespace":"a"},"requestReceivedTimestamp":"` +
			at + `"` + code + "}\n"
	}
	log := line(`,"responseStatus":{"code":200}`) + line(`,"responseStatus":{"code":409}`) + line("")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := r.CountEach(Filter{Namespace: "a", From: t0, To: t0}, Filter{Namespace: "a", From: t0, To: t0, Code: 409})
	if err != nil {
		t.Fatal(err)
	}
	if n := got[0].Total(); n != 3 {
		t.Errorf("every write: %d, want 3", n)
	}
	if n := got[1]["kruise-controller"]["update daemonsets/status"]; n != 1 || got[1].Total() != 1 {
		t.Errorf("conflicts: %v, want one update daemonsets/status", got[1])
	}
}
