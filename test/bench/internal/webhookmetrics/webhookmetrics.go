// Package webhookmetrics reads kube-apiserver's view of one admission webhook: its call
// latency histogram for one operation, its fail-open and rejection counts. The
// benchmarks of the pod webhook's handlers (pub-bench, ws-bench) compare these around
// a measured batch.
package webhookmetrics

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"k8s.io/client-go/kubernetes"

	"github.com/kruise-native/kruise-native/test/bench/internal/stack"
)

// Sample is one scrape.
type Sample struct {
	buckets                 map[float64]float64 // le -> cumulative count, calls of the operation
	Count, FailOpen, Denied float64
	// Skipped: requests of the operation the webhook's match conditions kept from
	// calling it.
	Skipped float64
}

// Scrape reads kube-apiserver's /metrics for the webhook named name; the histogram
// counts only calls for operation (CREATE, DELETE, ...).
func Scrape(ctx context.Context, kube kubernetes.Interface, name, operation string) (Sample, error) {
	body, err := kube.CoreV1().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return Sample{}, fmt.Errorf("scraping kube-apiserver: %w", err)
	}
	m := Sample{buckets: map[float64]float64{}}
	for _, line := range strings.Split(string(body), "\n") {
		if !strings.Contains(line, `name="`+name+`"`) {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			continue
		}
		labels := line[:i]
		switch {
		case strings.HasPrefix(line, "apiserver_admission_webhook_admission_duration_seconds_bucket{") &&
			stack.LabelValue(labels, "operation") == operation:
			le, err := strconv.ParseFloat(stack.LabelValue(labels, "le"), 64)
			if err == nil {
				m.buckets[le] += v
			}
		case strings.HasPrefix(line, "apiserver_admission_webhook_admission_duration_seconds_count{") &&
			stack.LabelValue(labels, "operation") == operation:
			m.Count += v
		case strings.HasPrefix(line, "apiserver_admission_webhook_fail_open_count{"):
			m.FailOpen += v
		case strings.HasPrefix(line, "apiserver_admission_webhook_rejection_count{"):
			m.Denied += v
		case strings.HasPrefix(line, "apiserver_admission_match_condition_exclusions_total{") &&
			stack.LabelValue(labels, "operation") == operation:
			m.Skipped += v
		}
	}
	return m, nil
}

// Delta is what happened between two scrapes.
type Delta struct {
	Calls, P50, P99, FailOpen, Denied float64 // P50, P99: seconds (histogram bucket upper bound)
	Skipped                           float64
}

// Between returns the calls, latency quantiles and failures from before to after.
func Between(before, after Sample) Delta {
	buckets := map[float64]float64{}
	for k, v := range after.buckets {
		buckets[k] = v - before.buckets[k]
	}
	calls := after.Count - before.Count
	return Delta{Calls: calls, P50: quantile(buckets, calls, 0.50), P99: quantile(buckets, calls, 0.99),
		FailOpen: after.FailOpen - before.FailOpen, Denied: after.Denied - before.Denied, Skipped: after.Skipped - before.Skipped}
}

// quantile is the upper bound of the histogram bucket holding quantile q.
func quantile(buckets map[float64]float64, count, q float64) float64 {
	if count == 0 {
		return 0
	}
	les := make([]float64, 0, len(buckets))
	for le := range buckets {
		les = append(les, le)
	}
	sort.Float64s(les)
	for _, le := range les {
		if buckets[le] >= q*count {
			return le
		}
	}
	return les[len(les)-1]
}
