// Package stats summarizes request latencies and throughput.
package stats

import (
	"math"
	"slices"
	"sync"
	"time"
)

// Summary of one batch of requests.
type Summary struct {
	Requests int     `json:"requests"`
	Errors   int     `json:"errors"`
	Seconds  float64 `json:"seconds"`      // wall time of the batch
	PerSec   float64 `json:"perSecond"`    // successful requests per second of wall time
	P50ms    float64 `json:"p50ms"`        // latency percentiles of successful requests
	P99ms    float64 `json:"p99ms"`        //
	MaxMs    float64 `json:"maxMs"`        //
	BytesAvg float64 `json:"bytesAvg"`     // response body bytes per request as decoded
	WireAvg  float64 `json:"wireBytesAvg"` // as sent on the wire (gzip when the server compressed)
	// FirstError is the first failure, for the report (empty when none failed).
	FirstError string `json:"firstError,omitempty"`
}

// Recorder collects results from concurrent workers.
type Recorder struct {
	mu         sync.Mutex
	lat        []time.Duration
	errors     int
	bytes      int64
	wire       int64
	firstError string
}

// Add records one request.
func (r *Recorder) Add(d time.Duration, bytes, wire int64, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.errors++
		if r.firstError == "" {
			r.firstError = err.Error()
		}
		return
	}
	r.lat = append(r.lat, d)
	r.bytes += bytes
	r.wire += wire
}

// Summarize computes the summary for a batch that took wall.
func (r *Recorder) Summarize(wall time.Duration) Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.lat)
	s := Summary{Requests: n + r.errors, Errors: r.errors, Seconds: round(wall.Seconds(), 3), FirstError: r.firstError}
	if n == 0 {
		return s
	}
	slices.Sort(r.lat)
	s.PerSec = round(float64(n)/wall.Seconds(), 1)
	s.P50ms = ms(Percentile(r.lat, 50))
	s.P99ms = ms(Percentile(r.lat, 99))
	s.MaxMs = ms(r.lat[n-1])
	s.BytesAvg = round(float64(r.bytes)/float64(n), 0)
	s.WireAvg = round(float64(r.wire)/float64(n), 0)
	return s
}

// Percentile of sorted durations (nearest rank).
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func ms(d time.Duration) float64 { return round(float64(d)/float64(time.Millisecond), 2) }

func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}
