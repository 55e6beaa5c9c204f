package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"k8s.io/client-go/tools/cache"
	"k8s.io/component-base/metrics/legacyregistry"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/nodedaemon/criclient"
)

// healthTimeout bounds the runtime's answer to a health check.
const healthTimeout = 3 * time.Second

// readiness holds the informers' sync checks once they exist.
type readiness struct {
	mu     sync.Mutex
	synced []cache.InformerSynced
}

func (r *readiness) set(s ...cache.InformerSynced) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.synced = s
}

func (r *readiness) ready() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.synced) == 0 {
		return false
	}
	for _, s := range r.synced {
		if !s() {
			return false
		}
	}
	return true
}

// serveHealth serves /healthz (the runtime answers Version: a daemon that cannot reach
// its runtime can do nothing, and a restart may reconnect it), /readyz (healthy and
// informers synced) and /metrics. It returns the address it listens on.
func serveHealth(ctx context.Context, addr string, cri *criclient.Client, r *readiness) (*http.Server, string, error) {
	runtimeOK := func(w http.ResponseWriter, req *http.Request) bool {
		if _, err := cri.Version(req.Context(), healthTimeout); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return false
		}
		return true
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, req *http.Request) {
		if runtimeOK(w, req) {
			_, _ = w.Write([]byte("ok"))
		}
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, req *http.Request) {
		if !runtimeOK(w, req) {
			return
		}
		if !r.ready() {
			http.Error(w, "informers not synced", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	mux.Handle("/metrics", legacyregistry.Handler())
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", fmt.Errorf("listening on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			klog.FromContext(ctx).Error(err, "Health server stopped")
		}
	}()
	return srv, ln.Addr().String(), nil
}
