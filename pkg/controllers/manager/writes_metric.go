package manager

import (
	"net/http"
	"strings"

	"k8s.io/client-go/rest"
	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
)

// apiWrites counts the mutating requests the controllers make (events excluded: they
// go through their own client), by resource and verb. DESIGN's performance model:
// writes per pod ÷ QPS is what bounds a rollout, so this is the figure to watch.
var apiWrites = metrics.NewCounterVec(&metrics.CounterOpts{
	Subsystem:      "kruise_controller",
	Name:           "api_writes_total",
	Help:           "Mutating API requests made by the controllers (not events), by resource and verb.",
	StabilityLevel: metrics.ALPHA,
}, []string{"resource", "verb"})

func init() { legacyregistry.MustRegister(apiWrites) }

// countWrites wraps the controllers' client transport to count their writes.
func countWrites(cfg *rest.Config) {
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
			if req.Method != http.MethodGet && req.Method != http.MethodHead {
				apiWrites.WithLabelValues(resourceOf(req.URL.Path), req.Method).Inc()
			}
			return rt.RoundTrip(req)
		})
	})
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// resourceOf extracts "pods", "pods/status", "clonesets/status"... from an API path:
// /api/v1/namespaces/ns/pods/name/status or /apis/group/version/namespaces/ns/res/name.
func resourceOf(path string) string {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case len(parts) > 0 && parts[0] == "api":
		parts = parts[min(2, len(parts)):]
	case len(parts) > 0 && parts[0] == "apis":
		parts = parts[min(3, len(parts)):]
	default:
		return "other"
	}
	if len(parts) >= 2 && parts[0] == "namespaces" && len(parts) > 2 {
		parts = parts[2:]
	}
	switch len(parts) {
	case 0:
		return "other"
	case 1, 2:
		return parts[0]
	default:
		return parts[0] + "/" + parts[2]
	}
}
