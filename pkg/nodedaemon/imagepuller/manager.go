package imagepuller

import (
	"context"
	"errors"
	"sync"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// DefaultWorkers is the number of concurrent pulls when Options.Workers is
// not positive: parallel pulls share the node's bandwidth, so a few at a time
// finish the first images sooner than all at once.
const DefaultWorkers = 2

// Options tune a Manager; zero values take the defaults.
type Options struct {
	// Workers is the maximum number of PullImage calls in flight.
	Workers int
	// Backoff is the wait between attempts of a task.
	Backoff Backoff
	// Clock drives timeouts, backoff and timestamps; tests pass a fake.
	Clock clock.Clock
}

// Manager runs image pull tasks against a CRI image service. It is safe for
// concurrent use.
type Manager struct {
	images   runtimeapi.ImageServiceClient
	slots    chan struct{} // one token per pull in flight
	backoff  Backoff
	clock    clock.Clock
	onChange func(key string)

	ctx    context.Context // parent of every task; canceled by Stop
	cancel context.CancelFunc
	wg     sync.WaitGroup // running tasks

	mu      sync.Mutex
	tasks   map[string]*run
	stopped bool
}

// run is one task under one key and version. A new version gets a new run, so
// a canceled run can tell it no longer owns the key.
type run struct {
	key    string
	task   Task
	status Status
	cancel context.CancelFunc
}

// NewManager returns a Manager pulling through images. ctx carries the logger
// and bounds the Manager's life (canceling it cancels every task, as Stop
// does). onChange, if not nil, is called with a task's key after its status
// changed or its key was dropped, never under the Manager's locks; it may be
// called from several goroutines at once and should only schedule work (the
// daemon coalesces status writes).
func NewManager(ctx context.Context, images runtimeapi.ImageServiceClient, opts Options, onChange func(key string)) (*Manager, error) {
	if images == nil {
		return nil, errors.New("imagepuller: nil CRI image service client")
	}
	if opts.Workers <= 0 {
		opts.Workers = DefaultWorkers
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	if onChange == nil {
		onChange = func(string) {}
	}
	ctx, cancel := context.WithCancel(ctx)
	return &Manager{
		images:   images,
		slots:    make(chan struct{}, opts.Workers),
		backoff:  opts.Backoff.withDefaults(),
		clock:    opts.Clock,
		onChange: onChange,
		ctx:      ctx,
		cancel:   cancel,
		tasks:    map[string]*run{},
	}, nil
}

// Sync makes the running set match desired, keyed by the caller's task key:
// a key not known yet, or whose Version changed, starts (anew); a known key
// with the same Version is left alone, running or finished, even if other
// fields changed; a key not in desired is canceled and forgotten. Calling it
// again with the same map changes nothing.
func (m *Manager) Sync(desired map[string]Task) {
	var changed []string
	m.mu.Lock()
	if m.stopped {
		m.mu.Unlock()
		return
	}
	for key, r := range m.tasks {
		t, ok := desired[key]
		if ok && t.Version == r.task.Version {
			continue
		}
		r.cancel()
		delete(m.tasks, key)
		if !ok {
			changed = append(changed, key)
		}
	}
	for key, t := range desired {
		if _, ok := m.tasks[key]; ok {
			continue
		}
		m.startLocked(key, t)
		changed = append(changed, key)
	}
	m.mu.Unlock()
	m.notify(changed...)
}

// startLocked registers a run for key and starts its goroutine.
func (m *Manager) startLocked(key string, t Task) {
	logger := klog.FromContext(m.ctx).WithValues("key", key, "image", t.Image, "version", t.Version)
	ctx, cancel := context.WithCancel(klog.NewContext(m.ctx, logger))
	r := &run{
		key:    key,
		task:   t,
		status: Status{Phase: PhaseWaiting, Version: t.Version},
		cancel: cancel,
	}
	m.tasks[key] = r
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer cancel()
		m.runTask(ctx, r)
	}()
}

// Status returns the status of the task under key.
func (m *Manager) Status(key string) (Status, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.tasks[key]
	if !ok {
		return Status{}, false
	}
	return r.status, true
}

// Statuses returns the status of every task, by key.
func (m *Manager) Statuses() map[string]Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]Status, len(m.tasks))
	for key, r := range m.tasks {
		out[key] = r.status
	}
	return out
}

// Stop cancels every task and waits for their goroutines to return; no
// onChange call happens after it returns. Statuses keep their last value.
func (m *Manager) Stop() {
	m.mu.Lock()
	m.stopped = true
	m.mu.Unlock()
	m.cancel()
	m.wg.Wait()
}

// update applies fn to r's status if r still owns its key and the Manager
// runs, then tells the caller; a run replaced by a newer version or removed
// writes nothing.
func (m *Manager) update(r *run, fn func(*Status)) {
	m.mu.Lock()
	if m.stopped || m.tasks[r.key] != r {
		m.mu.Unlock()
		return
	}
	fn(&r.status)
	m.mu.Unlock()
	m.notify(r.key)
}

func (m *Manager) notify(keys ...string) {
	for _, key := range keys {
		m.onChange(key)
	}
}
