package profile

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"k8s.io/client-go/rest"
)

// ForceGC makes t run a garbage collection now: pprof's heap endpoint collects before
// it writes the profile when asked with gc=1. A memory reading after it holds no
// garbage the collector had merely not reached yet.
func ForceGC(ctx context.Context, t Target) error {
	hc, err := rest.HTTPClientFor(t.Config)
	if err != nil {
		return fmt.Errorf("client for %s: %w", t.Name, err)
	}
	hc.Timeout = time.Minute
	req, err := http.NewRequestWithContext(ctx, "GET", strings.TrimSuffix(t.Config.Host, "/")+"/debug/pprof/heap?gc=1", nil)
	if err != nil {
		return fmt.Errorf("forcing a GC on %s: %w", t.Name, err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("forcing a GC on %s: %w", t.Name, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("forcing a GC on %s: HTTP %d", t.Name, resp.StatusCode)
	}
	return nil
}
