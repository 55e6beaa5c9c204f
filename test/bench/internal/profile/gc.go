package profile

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"k8s.io/client-go/rest"
)

// ForceGC makes t run a garbage collection now (pprof's heap endpoint collects before
// it writes the profile when asked with gc=1) and returns the live heap right after it,
// go_memstats_alloc_bytes from its /metrics: memory the objects it holds really take,
// which RSS shows only blurred by what the Go runtime has not yet given back.
func ForceGC(ctx context.Context, t Target) (liveHeapBytes float64, err error) {
	hc, err := rest.HTTPClientFor(t.Config)
	if err != nil {
		return 0, fmt.Errorf("client for %s: %w", t.Name, err)
	}
	hc.Timeout = time.Minute
	get := func(path string) ([]byte, error) {
		req, err := http.NewRequestWithContext(ctx, "GET", strings.TrimSuffix(t.Config.Host, "/")+path, nil)
		if err != nil {
			return nil, err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("HTTP %d", resp.StatusCode)
		}
		return b, err
	}
	if _, err := get("/debug/pprof/heap?gc=1"); err != nil {
		return 0, fmt.Errorf("forcing a GC on %s: %w", t.Name, err)
	}
	metrics, err := get("/metrics")
	if err != nil {
		return 0, fmt.Errorf("reading the heap of %s: %w", t.Name, err)
	}
	for _, line := range strings.Split(string(metrics), "\n") {
		if v, ok := strings.CutPrefix(line, "go_memstats_alloc_bytes "); ok {
			return strconv.ParseFloat(strings.TrimSpace(v), 64)
		}
	}
	return 0, fmt.Errorf("%s: no go_memstats_alloc_bytes in /metrics", t.Name)
}
