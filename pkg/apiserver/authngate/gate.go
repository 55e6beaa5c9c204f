// Package authngate holds back requests until kruise-apiserver can tell who sends them.
//
// Delegated authentication reads the client CA and the front-proxy (request-header) CA
// from kube-system/extension-apiserver-authentication through informers that start
// with the server. Until they have synced, the serving configuration trusts neither
// CA: a request kube-apiserver proxies is then anonymous, and authorization answers
// 403 "system:anonymous cannot ...". Clients take a 403 as final, so a restart under
// load lost requests. The gate answers 503 with Retry-After instead, which clients
// (client-go, kubectl, kube-apiserver's aggregator) retry, until every CA the
// configmap publishes is trusted.
package authngate

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
)

// RetryAfterSeconds is what a held-back request is told to wait.
const RetryAfterSeconds = 1

// pollInterval is how often the gate compares what is trusted with what is published.
const pollInterval = 100 * time.Millisecond

// Gate is closed until Run has seen the published CAs trusted, then open for good.
type Gate struct {
	// Published returns the CA bundles that must be trusted before serving (those the
	// server reads from the cluster rather than from files).
	Published func(ctx context.Context) ([]string, error)
	// Trusted returns the CA bundles the serving configuration trusts now.
	Trusted func() []byte

	open atomic.Bool
}

// Open reports whether requests pass.
func (g *Gate) Open() bool { return g.open.Load() }

// Run polls until the published CAs are trusted, opens the gate and returns; or
// returns when ctx ends.
func (g *Gate) Run(ctx context.Context) {
	logger := klog.FromContext(ctx)
	start := time.Now()
	for {
		ok, err := g.synced(ctx)
		if ok {
			g.open.Store(true)
			logger.Info("Authentication configuration loaded; serving requests", "after", time.Since(start).Round(time.Millisecond))
			return
		}
		if err != nil {
			logger.V(2).Info("Authentication configuration not loaded yet", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pollInterval):
		}
	}
}

func (g *Gate) synced(ctx context.Context) (bool, error) {
	published, err := g.Published(ctx)
	if err != nil {
		return false, err
	}
	trusted := string(g.Trusted())
	for _, ca := range published {
		if ca = strings.TrimSpace(ca); ca != "" && !strings.Contains(trusted, ca) {
			return false, nil
		}
	}
	return true, nil
}

// Check is a readyz check: not ready while the gate is closed.
func (g *Gate) Check(*http.Request) error {
	if !g.Open() {
		return fmt.Errorf("client CAs from the cluster's authentication configuration not loaded yet")
	}
	return nil
}

// Name names the readyz check.
func (g *Gate) Name() string { return "authentication-config" }

// WithGate wraps the whole handler chain: health checks always pass (probes must see
// the server alive and not ready), everything else waits for the gate.
func (g *Gate) WithGate(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if g.Open() || isHealthCheck(r.URL.Path) {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Retry-After", fmt.Sprint(RetryAfterSeconds))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_ = json.NewEncoder(w).Encode(unavailable)
	})
}

// unavailable is the answer to a held-back request, as a Status clients can read.
var unavailable = metav1.Status{
	TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
	Status:   metav1.StatusFailure,
	Message:  "kruise-apiserver is loading its authentication configuration; retry",
	Reason:   metav1.StatusReasonServiceUnavailable,
	Code:     http.StatusServiceUnavailable,
	Details:  &metav1.StatusDetails{RetryAfterSeconds: RetryAfterSeconds},
}

func isHealthCheck(path string) bool {
	for _, p := range []string{"/healthz", "/livez", "/readyz"} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}
