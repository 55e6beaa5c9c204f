package manager

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/klog/v2"
)

// errLostLeadership is what runLeading returns when another replica took the lease
// (and onLost returned, which exitOnLostLease does not).
var errLostLeadership = errors.New("lost leadership")

// exitOnLostLease ends the process at once, non-zero, when the lease is lost, as
// kube-controller-manager does: the controllers may be in the middle of a sync that
// will not stop soon (a worker stuck in a long write, a sync gone wrong), and the
// replica that took the lease must not have a second writer beside it. The supervisor
// restarts the process, which then waits for the lease like any standby.
func exitOnLostLease() { klog.FlushAndExit(klog.ExitFlushTimeout, 1) }

// runLeading runs run while this process holds the lease of cfg.Lock, and gives the
// lease up (ReleaseOnCancel) once run has returned, so that a standby replica takes over
// at once instead of after the lease expires. It returns
//   - run's error, once the lease is released: a leader that cannot do its work must not
//     keep the lease while doing nothing;
//   - nil when ctx ended (run is stopped first, then the lease released);
//   - errLostLeadership when the lease was lost: onLost is called first, as soon as the
//     elector gives up (exitOnLostLease in the process, which never returns), and only
//     if it returns is run stopped and waited for.
func runLeading(ctx context.Context, cfg leaderelection.LeaderElectionConfig, run func(context.Context) error, onLost func()) error {
	logger := klog.FromContext(ctx)
	// The elector's context ends only after run has returned: with ReleaseOnCancel the
	// elector gives the lease up as soon as its context ends, and no controller may still
	// write when another replica starts.
	electorCtx, stopElector := context.WithCancel(context.WithoutCancel(ctx))
	defer stopElector()
	// released: this replica gives the lease up on purpose (shutdown, or run returned),
	// so the end of leading that follows is no loss. Set before the elector is stopped.
	var released atomic.Bool
	release := func() {
		released.Store(true)
		stopElector()
	}

	g := newRunGate()
	cfg.ReleaseOnCancel = true
	cfg.Callbacks = leaderelection.LeaderCallbacks{
		OnStartedLeading: func(leaderCtx context.Context) {
			if !g.enter() {
				return
			}
			runCtx, cancel := context.WithCancel(leaderCtx)
			defer cancel()
			defer context.AfterFunc(ctx, cancel)()
			err := run(runCtx)
			if err == nil && runCtx.Err() == nil {
				err = errors.New("stopped before it was told to")
			}
			g.exit(err)
			if leaderCtx.Err() != nil && ctx.Err() == nil {
				return // the elector ended leading: the lease is lost, not given up
			}
			release()
		},
		OnStoppedLeading: func() {
			if released.Load() {
				logger.Info("Not leading any more")
				return
			}
			logger.Error(nil, "Lost the lease: another replica may lead; exiting")
			onLost()
		},
	}
	elector, err := leaderelection.NewLeaderElector(cfg)
	if err != nil {
		return fmt.Errorf("leader election: %w", err)
	}
	go func() {
		select {
		case <-electorCtx.Done():
		case <-ctx.Done():
			g.wait()
			release()
		}
	}()
	elector.Run(electorCtx)
	// The elector is done: the lease is released or lost. A run that never started
	// will not start any more.
	if started, runErr := g.wait(); started && runErr != nil {
		return runErr
	}
	if ctx.Err() != nil {
		return nil
	}
	return errLostLeadership
}

// runGate lets run start at most once, never after the elector stopped, and lets the
// caller wait for it to return.
type runGate struct {
	mu      sync.Mutex
	closed  bool
	started bool
	done    chan struct{}
	err     error
}

func newRunGate() *runGate { return &runGate{done: make(chan struct{})} }

// enter reports whether run may start.
func (g *runGate) enter() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.started = true
	return true
}

// exit records run's result.
func (g *runGate) exit(err error) {
	g.err = err
	close(g.done)
}

// wait closes the gate, then waits for run if it started; it returns whether run
// started and what it returned.
func (g *runGate) wait() (bool, error) {
	g.mu.Lock()
	g.closed = true
	started := g.started
	g.mu.Unlock()
	if !started {
		return false, nil
	}
	<-g.done
	return true, g.err
}
