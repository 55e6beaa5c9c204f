package etcderrors

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	"k8s.io/apiserver/pkg/storage"
)

// Which storage errors become which API status, as the handler writes it.
func TestRetriable(t *testing.T) {
	cacheNotReady := apierrors.NewServiceUnavailable("storage is (re)initializing")
	withOwnDelay := apierrors.NewServiceUnavailable("busy")
	withOwnDelay.ErrStatus.Details = &metav1.StatusDetails{RetryAfterSeconds: 7}
	notFound := apierrors.NewNotFound(schema.GroupResource{Group: "apps.kruise.io", Resource: "clonesets"}, "x")
	for _, tc := range []struct {
		name string
		err  error
		// code 0: err comes back unchanged
		code       int32
		reason     metav1.StatusReason
		retryAfter int32
	}{
		// the leader lost mid-request (4 writers got 500 in a probe)
		{name: "timed out, previous leader failed", err: rpctypes.ErrTimeoutDueToLeaderFail, code: 504, reason: metav1.StatusReasonTimeout, retryAfter: 1},
		{name: "timed out", err: rpctypes.ErrTimeout, code: 504, reason: metav1.StatusReasonTimeout, retryAfter: 1},
		{name: "timed out, connection lost", err: rpctypes.ErrTimeoutDueToConnectionLost, code: 504, reason: metav1.StatusReasonTimeout, retryAfter: 1},
		{name: "timed out waiting for the applied index", err: rpctypes.ErrTimeoutWaitAppliedIndex, code: 504, reason: metav1.StatusReasonTimeout, retryAfter: 1},
		{name: "timed out, wrapped", err: fmt.Errorf("update: %w", rpctypes.ErrTimeout), code: 504, reason: metav1.StatusReasonTimeout, retryAfter: 1},
		{name: "no leader", err: rpctypes.ErrNoLeader, code: 503, reason: metav1.StatusReasonServiceUnavailable, retryAfter: 1},
		{name: "leader changed", err: rpctypes.ErrLeaderChanged, code: 503, reason: metav1.StatusReasonServiceUnavailable, retryAfter: 1},
		{name: "server stopped", err: rpctypes.ErrStopped, code: 503, reason: metav1.StatusReasonServiceUnavailable, retryAfter: 1},
		{name: "unhealthy cluster", err: rpctypes.ErrUnhealthy, code: 503, reason: metav1.StatusReasonServiceUnavailable, retryAfter: 1},
		{name: "no member reachable (gRPC Unavailable)", err: status.Error(codes.Unavailable, "connection error: connection refused"),
			code: 503, reason: metav1.StatusReasonServiceUnavailable, retryAfter: 1},
		{name: "too many requests", err: rpctypes.ErrTooManyRequests, code: 429, reason: metav1.StatusReasonTooManyRequests, retryAfter: 1},
		{name: "watch cache not ready", err: cacheNotReady, code: 503, reason: metav1.StatusReasonServiceUnavailable, retryAfter: 1},

		// not for a retry to mend, or already saying when
		{name: "nil", err: nil},
		{name: "503 with its own delay", err: withOwnDelay},
		{name: "not found", err: notFound},
		{name: "exists", err: storage.NewKeyExistsError("/k", 0)},
		{name: "compacted", err: rpctypes.ErrCompacted},
		{name: "database space exceeded", err: rpctypes.ErrNoSpace},
		{name: "request too large", err: rpctypes.ErrRequestTooLarge},
		{name: "corrupt cluster", err: rpctypes.ErrCorrupt},
		{name: "request context ended", err: context.DeadlineExceeded},
		{name: "anything else", err: errors.New("decode failed")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Retriable(tc.err)
			if tc.code == 0 {
				if got != tc.err {
					t.Fatalf("Retriable(%v) = %v, want it unchanged", tc.err, got)
				}
				return
			}
			var se *apierrors.StatusError
			if !errors.As(got, &se) {
				t.Fatalf("Retriable(%v) = %T %v, want a StatusError", tc.err, got, got)
			}
			// what the handler writes (it type-switches on the error itself)
			s := responsewriters.ErrorToAPIStatus(got)
			if s.Code != tc.code || s.Reason != tc.reason {
				t.Errorf("status %d %s, want %d %s", s.Code, s.Reason, tc.code, tc.reason)
			}
			if s.Details == nil || s.Details.RetryAfterSeconds != tc.retryAfter {
				t.Errorf("details %+v, want RetryAfterSeconds %d", s.Details, tc.retryAfter)
			}
			if !strings.Contains(s.Message, tc.err.Error()) {
				t.Errorf("message %q lacks the cause %q", s.Message, tc.err.Error())
			}
			if delay, ok := apierrors.SuggestsClientDelay(got); !ok || delay != int(tc.retryAfter) {
				t.Errorf("SuggestsClientDelay = %d, %t; want %d, true", delay, ok, tc.retryAfter)
			}
		})
	}
	if cacheNotReady.ErrStatus.Details != nil {
		t.Error("Retriable changed the status it was given")
	}
}

// client-go retries a create answered with what Retriable makes (a POST: it retries any
// verb whose answer carries Retry-After), and reports a plain 500 at once.
func TestClientGoRetriesRetriableStatus(t *testing.T) {
	for _, tc := range []struct {
		name      string
		first     error
		wantCalls int
		wantOK    bool
	}{
		{name: "leader lost, mapped", first: Retriable(rpctypes.ErrTimeoutDueToLeaderFail), wantCalls: 2, wantOK: true},
		{name: "no leader, mapped", first: Retriable(rpctypes.ErrNoLeader), wantCalls: 2, wantOK: true},
		{name: "leader lost, as a 500 (before)", first: rpctypes.ErrTimeoutDueToLeaderFail, wantCalls: 1, wantOK: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls, err := createThrough(t, tc.first)
			if calls != tc.wantCalls || (err == nil) != tc.wantOK {
				t.Errorf("%d calls, error %v; want %d calls, success %t", calls, err, tc.wantCalls, tc.wantOK)
			}
		})
	}
}
