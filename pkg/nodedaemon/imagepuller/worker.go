package imagepuller

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"k8s.io/klog/v2"
)

// runTask drives one task to Succeeded or Failed, or returns early, writing
// nothing, when ctx is canceled (key removed, version replaced, Stop).
func (m *Manager) runTask(ctx context.Context, r *run) {
	logger := klog.FromContext(ctx)
	t := r.task
	if err := t.validate(); err != nil {
		m.finish(r, PhaseFailed, "", fmt.Sprintf("invalid task: %v", err))
		return
	}

	if t.PullPolicy != PullAlways {
		// Not a pull, so it takes no worker slot: present images of a long
		// list complete at once instead of queuing behind real pulls.
		if id, ok := m.presentImageID(ctx, t); ok {
			logger.V(2).Info("Image already present, not pulling", "imageID", id)
			m.finish(r, PhaseSucceeded, id, "image already present")
			return
		}
	}

	var (
		deadline time.Time
		lastErr  error
	)
	limit := t.backoffLimit()
	for attempt := 1; ; attempt++ {
		if !m.acquire(ctx) {
			return
		}
		now := m.clock.Now()
		if attempt == 1 && t.ActiveDeadline > 0 {
			deadline = now.Add(t.ActiveDeadline)
		}
		timeout := t.timeout()
		if !deadline.IsZero() {
			// Waiting for a worker may have used up the deadline; and an
			// attempt may not outlive the task.
			left := deadline.Sub(now)
			if left <= 0 {
				m.release()
				m.finish(r, PhaseFailed, "", deadlineMessage(t, attempt-1, lastErr))
				return
			}
			timeout = min(timeout, left)
		}
		m.update(r, func(s *Status) {
			if attempt == 1 {
				s.Phase, s.StartTime = PhasePulling, now
			}
			s.Attempts = int32(attempt)
		})

		logger.V(2).Info("Pulling image", "attempt", attempt, "timeout", timeout)
		id, err := m.attempt(ctx, t, timeout)
		m.release()
		if ctx.Err() != nil {
			logger.V(2).Info("Pull canceled", "attempt", attempt)
			return
		}
		if err == nil {
			logger.Info("Pulled image", "attempt", attempt, "imageID", id)
			m.finish(r, PhaseSucceeded, id, "")
			return
		}
		logger.Error(err, "Pull attempt failed", "attempt", attempt)
		lastErr = err

		if attempt > limit {
			m.finish(r, PhaseFailed, "", fmt.Sprintf("pull failed after %s: %v", plural(attempt, "attempt"), err))
			return
		}
		if !deadline.IsZero() && !m.clock.Now().Before(deadline) {
			m.finish(r, PhaseFailed, "", deadlineMessage(t, attempt, err))
			return
		}
		wait := m.backoff.delay(attempt, rand.Float64())
		if !deadline.IsZero() {
			// Fail at the deadline rather than after a backoff that
			// outlasts it.
			wait = min(wait, deadline.Sub(m.clock.Now()))
		}
		m.update(r, func(s *Status) {
			s.Message = fmt.Sprintf("attempt %d of %d failed, retrying in %s: %v", attempt, limit+1, wait.Round(time.Millisecond), err)
		})
		if !m.sleep(ctx, wait) {
			return
		}
	}
}

func deadlineMessage(t Task, attempts int, last error) string {
	msg := fmt.Sprintf("active deadline of %s exceeded after %s", t.ActiveDeadline, plural(attempts, "attempt"))
	if last != nil {
		msg += fmt.Sprintf(": %v", last)
	}
	return msg
}

// finish records the end of the task.
func (m *Manager) finish(r *run, phase Phase, imageID, message string) {
	now := m.clock.Now()
	m.update(r, func(s *Status) {
		s.Phase, s.ImageID, s.Message, s.CompletionTime = phase, imageID, message, now
		if s.StartTime.IsZero() {
			s.StartTime = now
		}
		if phase == PhaseSucceeded {
			s.Progress = 100
		}
	})
}

// acquire takes a worker slot, or gives up when ctx ends.
func (m *Manager) acquire(ctx context.Context) bool {
	select {
	case m.slots <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (m *Manager) release() { <-m.slots }

// sleep waits d on the Manager's clock, or until ctx ends.
func (m *Manager) sleep(ctx context.Context, d time.Duration) bool {
	timer := m.clock.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C():
		return true
	case <-ctx.Done():
		return false
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
