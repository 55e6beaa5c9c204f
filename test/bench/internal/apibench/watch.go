package apibench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/test/bench/internal/rawclient"
	"github.com/kruise-native/kruise-native/test/bench/internal/stats"
)

const sentAnnotation = "bench.kruise.io/sent"

// WatchResult: o.Watchers watch the collection while o.Clients writers update objects.
type WatchResult struct {
	Watchers       int           `json:"watchers"`
	Writes         stats.Summary `json:"writes"`
	EventsExpected int           `json:"eventsExpected"`
	EventsReceived int64         `json:"eventsReceived"`
	// Delivery latency: from just before a write was sent to a watcher decoding its event.
	DeliveryP50ms float64 `json:"deliveryP50ms"`
	DeliveryP99ms float64 `json:"deliveryP99ms"`
	DeliveryMaxMs float64 `json:"deliveryMaxMs"`
	BytesPerEvent float64 `json:"bytesPerEvent"`
	// Seconds from the first write to the last watcher having every event.
	DrainSeconds float64 `json:"drainSeconds"`
	// Restarts: watches the server ended early (it closes a watcher that falls behind)
	// and that were opened again from the last resourceVersion seen, as an informer does.
	Restarts int64 `json:"restarts"`
}

type watchEvent struct {
	Type   string `json:"type"`
	Object struct {
		Metadata struct {
			ResourceVersion string            `json:"resourceVersion"`
			Annotations     map[string]string `json:"annotations"`
		} `json:"metadata"`
	} `json:"object"`
}

func watchWhileWriting(ctx context.Context, clients []*rawclient.Client, t Target, o Options) (WatchResult, error) {
	logger := klog.FromContext(ctx)
	res := WatchResult{Watchers: o.Watchers, EventsExpected: o.Watchers * o.WatchWrites}
	rv, err := currentResourceVersion(ctx, clients[0], t)
	if err != nil {
		return res, err
	}
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	var (
		received atomic.Int64
		bytes    atomic.Int64
		restarts atomic.Int64
		mu       sync.Mutex
		lat      []time.Duration
		ready    sync.WaitGroup
		done     sync.WaitGroup
		errs     = make(chan error, o.Watchers)
	)
	for w := range o.Watchers {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			s := &watchStream{c: clients[w], collection: t.collection(), rv: rv, want: o.WatchWrites,
				received: &received, bytes: &bytes, restarts: &restarts}
			mine, err := s.run(wctx, &ready)
			if err != nil && !errors.Is(err, context.Canceled) {
				errs <- err
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	ready.Wait() // every watch has its response headers: it is registered
	select {
	case err := <-errs:
		return res, fmt.Errorf("a watcher failed before the writes: %w", err)
	default:
	}

	var rec stats.Recorder
	start := time.Now()
	rawclient.Parallel(ctx, o.Clients, o.WatchWrites, func(ctx context.Context, w, i int) {
		patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, sentAnnotation, strconv.FormatInt(time.Now().UnixNano(), 10))
		r, d, err := clients[w].Do(ctx, "PATCH", t.collection()+"/"+objectName(i%o.Objects), rawclient.JSON,
			rawclient.MergePatch, []byte(patch), false)
		rec.Add(d, r.Bytes, r.Wire, err)
	})
	res.Writes = rec.Summarize(time.Since(start))

	// Wait for every watcher to have every event, at most a minute.
	finished := make(chan struct{})
	go func() { done.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(time.Minute):
		logger.Info("Watchers still missing events after a minute; stopping them",
			"received", received.Load(), "expected", res.EventsExpected)
		stop()
		<-finished
	}
	res.DrainSeconds = time.Since(start).Seconds()
	close(errs)
	for err := range errs {
		logger.Error(err, "Watcher failed")
	}
	res.EventsReceived = received.Load()
	res.Restarts = restarts.Load()
	if n := received.Load(); n > 0 {
		res.BytesPerEvent = float64(bytes.Load()) / float64(n)
	}
	slices.Sort(lat)
	res.DeliveryP50ms = float64(stats.Percentile(lat, 50)) / 1e6
	res.DeliveryP99ms = float64(stats.Percentile(lat, 99)) / 1e6
	if len(lat) > 0 {
		res.DeliveryMaxMs = float64(lat[len(lat)-1]) / 1e6
	}
	return res, nil
}

// watchStream is one watcher: it reads until it has seen want writes of ours, opening
// the watch again from the last resourceVersion when the server ends it early.
type watchStream struct {
	c                         *rawclient.Client
	collection, rv            string
	want                      int
	received, bytes, restarts *atomic.Int64
	lat                       []time.Duration
}

func (s *watchStream) run(ctx context.Context, ready *sync.WaitGroup) ([]time.Duration, error) {
	signalled := false
	signal := func() {
		if !signalled {
			signalled = true
			ready.Done()
		}
	}
	defer signal()
	for attempt := 0; ; attempt++ {
		err := s.once(ctx, signal)
		if len(s.lat) >= s.want || ctx.Err() != nil {
			return s.lat, ctx.Err()
		}
		if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) || attempt > 100 {
			return s.lat, err
		}
		s.restarts.Add(1)
	}
}

// once opens the watch from s.rv and reads it until it ends.
func (s *watchStream) once(ctx context.Context, opened func()) error {
	path := s.collection + "?watch=true&allowWatchBookmarks=false&resourceVersion=" + s.rv
	req, err := http.NewRequestWithContext(ctx, "GET", s.c.Host+path, nil)
	if err != nil {
		return fmt.Errorf("building the watch: %w", err)
	}
	req.Header.Set("Accept", rawclient.JSON)
	resp, err := s.c.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("watch: HTTP %d", resp.StatusCode)
	}
	opened()
	body := &rawclient.CountingReader{R: resp.Body}
	dec := json.NewDecoder(body)
	var counted int64
	for len(s.lat) < s.want {
		var e watchEvent
		if err := dec.Decode(&e); err != nil {
			return fmt.Errorf("watch stream after %d events: %w", len(s.lat), err)
		}
		now := time.Now()
		if e.Type == "ERROR" {
			return fmt.Errorf("watch ended with an ERROR event after %d events", len(s.lat))
		}
		s.rv = e.Object.Metadata.ResourceVersion
		sent, err := strconv.ParseInt(e.Object.Metadata.Annotations[sentAnnotation], 10, 64)
		if e.Type != "MODIFIED" || err != nil {
			continue
		}
		s.lat = append(s.lat, now.Sub(time.Unix(0, sent)))
		s.received.Add(1)
		s.bytes.Add(body.N - counted)
		counted = body.N
	}
	return nil
}

func currentResourceVersion(ctx context.Context, c *rawclient.Client, t Target) (string, error) {
	r, _, err := c.Do(ctx, "GET", t.collection()+"?limit=1", rawclient.JSON, "", nil, true)
	if err != nil {
		return "", err
	}
	var l struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(r.Body, &l); err != nil {
		return "", fmt.Errorf("decoding the list: %w", err)
	}
	return l.Metadata.ResourceVersion, nil
}
