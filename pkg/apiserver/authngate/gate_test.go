package authngate

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestGateHoldsBackUntilPublishedCAsAreTrusted(t *testing.T) {
	var trusted atomic.Value
	trusted.Store("")
	g := &Gate{
		Published: func(context.Context) ([]string, error) { return []string{"CLIENT-CA\n", "FRONT-PROXY-CA", ""}, nil },
		Trusted:   func() []byte { return []byte(trusted.Load().(string)) },
	}
	h := g.WithGate(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	serve := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() { g.Run(ctx); close(done) }()

	cases := []struct {
		path string
		want int
	}{
		{"/apis/apps.kruise.io/v1beta1/namespaces/default/clonesets", http.StatusServiceUnavailable},
		{"/admission/mutate/pods", http.StatusServiceUnavailable},
		{"/readyz", http.StatusOK},
		{"/readyz/authentication-config", http.StatusOK},
		{"/livez", http.StatusOK},
		{"/healthzfoo", http.StatusServiceUnavailable},
	}
	for _, tc := range cases {
		rec := serve(tc.path)
		if rec.Code != tc.want {
			t.Errorf("closed gate, %s: code %d, want %d", tc.path, rec.Code, tc.want)
		}
		if tc.want == http.StatusServiceUnavailable && rec.Header().Get("Retry-After") != "1" {
			t.Errorf("closed gate, %s: Retry-After %q, want 1", tc.path, rec.Header().Get("Retry-After"))
		}
	}
	if g.Check(nil) == nil {
		t.Error("readyz check passes while the gate is closed")
	}

	trusted.Store("CLIENT-CA") // one of two: still closed
	select {
	case <-done:
		t.Fatal("gate opened with the front-proxy CA not trusted")
	case <-time.After(5 * pollInterval):
	}
	if serve("/apis").Code != http.StatusServiceUnavailable {
		t.Fatal("request passed with the front-proxy CA not trusted")
	}

	trusted.Store("CLIENT-CA\nFRONT-PROXY-CA")
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("gate did not open once every published CA was trusted")
	}
	if code := serve("/apis").Code; code != http.StatusOK {
		t.Errorf("open gate: code %d, want 200", code)
	}
	if err := g.Check(nil); err != nil {
		t.Errorf("readyz check fails on an open gate: %v", err)
	}
}
