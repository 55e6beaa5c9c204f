package chaos

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/rest"
)

// The load counts the answers its client retried (Retry-After) apart from the calls
// that failed, and names what each failure ended with; the report shows both.
// A unit test: it runs without the stack.
func TestWriteLoadCountsRetriedApartFromFailures(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch n.Add(1) {
		case 1: // an etcd leader election, as kruise-apiserver answers it: client-go retries
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"etcd is unavailable, try again: etcdserver: no leader","reason":"ServiceUnavailable","details":{"retryAfterSeconds":1},"code":503}`))
		case 3: // a 500: a failure
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"etcdserver: request timed out","reason":"InternalError","code":500}`))
		default:
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(`{"kind":"CloneSet","apiVersion":"apps.kruise.io/v1alpha1","metadata":{"name":"x"}}`))
		}
	}))
	defer srv.Close()

	start := time.Now()
	load, err := startWriteLoad(&rest.Config{Host: srv.URL}, "ns", "w", 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for load.ackedCount() < 3 {
		if time.Now().After(deadline) {
			load.finish()
			t.Fatalf("%d creates acknowledged after 30s, want 3", load.ackedCount())
		}
		time.Sleep(10 * time.Millisecond)
	}
	load.finish()

	failed, _ := load.failuresSince(start)
	if retried := load.retriedSince(start); retried != 1 {
		t.Errorf("retried = %d, want 1", retried)
	}
	if failed != 1 {
		t.Errorf("failed = %d, want 1", failed)
	}
	if causes := load.causesSince(start); causes != "500 InternalError×1" {
		t.Errorf("causes = %q, want 500 InternalError×1", causes)
	}

	path := filepath.Join(t.TempDir(), "report.md")
	r := result{fault: "the etcd leader", killed: "kruise-etcd-0", acked: load.ackedCount(), failed: failed,
		retried: load.retriedSince(start), causes: load.causesSince(start), rolloutOK: true, inFlight: true}
	if err := writeReport(path, start, 20, 5*time.Second, []result{r}); err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| retried | failed |", "| 1 | 1 (500 InternalError×1) |"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
}
