package imagepuller

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/klog/v2"
)

// errTimedOut is the cause of an attempt's context when its timeout fired,
// telling a timeout apart from the task being canceled.
var errTimedOut = errors.New("timed out")

// timeoutError is a failed attempt that ran out of time; its text is all the
// status message needs ("timed out after 10m0s").
type timeoutError struct{ after time.Duration }

func (e timeoutError) Error() string        { return fmt.Sprintf("timed out after %s", e.after) }
func (e timeoutError) Is(target error) bool { return target == errTimedOut }

// criError carries the runtime's error text without gRPC's "rpc error: code
// = ... desc =" framing, which the user reading a NodeImage status does not
// need; the gRPC error stays reachable through errors.Unwrap.
type criError struct {
	msg string
	err error
}

func (e *criError) Error() string { return e.msg }
func (e *criError) Unwrap() error { return e.err }

// attempt pulls t once within timeout and returns the image ID. When the
// timeout passes the call is canceled, which makes the runtime abort the pull.
func (m *Manager) attempt(ctx context.Context, t Task, timeout time.Duration) (string, error) {
	ctx, cancel := m.withTimeout(ctx, timeout)
	defer cancel()
	id, err := m.pull(ctx, t)
	if err != nil && (errors.Is(context.Cause(ctx), errTimedOut) || endedByDeadline(ctx, err)) {
		return "", timeoutError{after: timeout}
	}
	return id, err
}

// endedByDeadline tells a call the runtime ended because of our deadline before our
// own context noticed: gRPC sends the deadline to the server, whose clock may fire
// first and reset the stream (Canceled) or answer DeadlineExceeded.
func endedByDeadline(ctx context.Context, err error) bool {
	switch status.Code(errors.Unwrap(err)) {
	case codes.Canceled, codes.DeadlineExceeded:
	default:
		if c := status.Code(err); c != codes.Canceled && c != codes.DeadlineExceeded {
			return false
		}
	}
	d, ok := ctx.Deadline()
	return ok && time.Until(d) < deadlineSlack
}

// deadlineSlack is how close to the deadline a Canceled or DeadlineExceeded answer
// counts as the timeout firing.
const deadlineSlack = 250 * time.Millisecond

// pull tries each credential in turn, as the kubelet does with several
// matching pull secrets, and fails with every distinct runtime message when
// none works.
func (m *Manager) pull(ctx context.Context, t Task) (string, error) {
	logger := klog.FromContext(ctx)
	auths := t.Auths
	if len(auths) == 0 {
		auths = []*runtimeapi.AuthConfig{nil}
	}
	var (
		msgs    []string
		lastErr error
	)
	for i, auth := range auths {
		resp, err := m.images.PullImage(ctx, &runtimeapi.PullImageRequest{
			Image:         &runtimeapi.ImageSpec{Image: t.Image},
			Auth:          auth,
			SandboxConfig: t.SandboxConfig,
		})
		if err == nil {
			if id := resp.GetImageRef(); id != "" {
				return id, nil
			}
			// A runtime that leaves image_ref empty still knows the ID.
			id, _ := m.presentImageID(ctx, t)
			return id, nil
		}
		if ctx.Err() != nil {
			return "", fmt.Errorf("pull interrupted: %w", err)
		}
		if len(auths) > 1 {
			logger.V(2).Info("Pull with credential failed", "credential", i, "server", auth.GetServerAddress(), "err", err)
		}
		lastErr = err
		if msg := status.Convert(err).Message(); !slices.Contains(msgs, msg) {
			msgs = append(msgs, msg)
		}
	}
	return "", &criError{msg: strings.Join(msgs, "; "), err: lastErr}
}

// presentImageID returns the runtime's ID of t's image if the runtime has it.
// Errors are logged and read as "not present": the pull that follows reports
// the runtime's trouble properly.
func (m *Manager) presentImageID(ctx context.Context, t Task) (string, bool) {
	ctx, cancel := m.withTimeout(ctx, t.timeout())
	defer cancel()
	resp, err := m.images.ImageStatus(ctx, &runtimeapi.ImageStatusRequest{Image: &runtimeapi.ImageSpec{Image: t.Image}})
	if err != nil {
		klog.FromContext(ctx).V(2).Info("ImageStatus failed, pulling", "err", err)
		return "", false
	}
	id := resp.GetImage().GetId()
	return id, id != ""
}

// withTimeout returns a context that ends with cause errTimedOut after d on
// the Manager's clock. It also carries d as a real deadline, which gRPC sends
// to the runtime with the call; with a fake clock that deadline is only a
// backstop far behind the clock's.
func (m *Manager) withTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	deadlineCtx, cancelDeadline := context.WithTimeoutCause(parent, d, errTimedOut)
	ctx, cancel := context.WithCancelCause(deadlineCtx)
	timer := m.clock.NewTimer(d)
	go func() {
		select {
		case <-timer.C():
			cancel(errTimedOut)
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		timer.Stop()
		cancel(context.Canceled)
		cancelDeadline()
	}
}
