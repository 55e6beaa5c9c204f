// Package etcderrors turns the storage errors that mean "etcd cannot answer right now,
// ask again" into API statuses clients retry: 503 ServiceUnavailable, 504 Timeout or
// 429 TooManyRequests, each with Retry-After. Left alone they reach the client as 500
// InternalError (the generic registry passes unknown storage errors through), which
// client-go and kubectl report instead of retrying: writers failed during an etcd leader
// election that heals in a second or two.
package etcderrors

import (
	"errors"
	"fmt"
	"net/http"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// RetryAfterSeconds is the Retry-After of the statuses made here: about one etcd
// election (etcd's default election timeout is 1 s). client-go waits that long before
// each of its (by default 10) retries of a request answered so.
const RetryAfterSeconds = 1

// timeouts are etcd's "request timed out" answers: the request may still be applied
// (a retried create then finds the object, a retried update conflicts), so they are
// 504 Timeout rather than 503.
var timeouts = []error{
	rpctypes.ErrTimeout,
	rpctypes.ErrTimeoutDueToLeaderFail,
	rpctypes.ErrTimeoutDueToConnectionLost,
	rpctypes.ErrTimeoutWaitAppliedIndex,
}

// Retriable returns err as a retriable API status when it is an etcd error that a
// later attempt may not meet, and err unchanged otherwise (nil stays nil):
//   - etcd's request timeouts: 504 Timeout;
//   - etcd's "too many requests": 429 TooManyRequests;
//   - any other error with gRPC code Unavailable (no leader, leader changed, server
//     stopped, unhealthy cluster, or no connection to any member): 503 ServiceUnavailable;
//   - a 503 status without Retry-After (the watch cache not ready yet): the same status
//     with one.
//
// Each keeps etcd's message.
func Retriable(err error) error {
	if err == nil {
		return nil
	}
	var se *apierrors.StatusError
	if errors.As(err, &se) {
		s := se.Status()
		if s.Code != http.StatusServiceUnavailable || s.Details != nil && s.Details.RetryAfterSeconds > 0 {
			return err
		}
		s = *s.DeepCopy()
		if s.Details == nil {
			s.Details = &metav1.StatusDetails{}
		}
		s.Details.RetryAfterSeconds = RetryAfterSeconds
		return &apierrors.StatusError{ErrStatus: s}
	}
	for _, t := range timeouts {
		if errors.Is(err, t) {
			return apierrors.NewTimeoutError(fmt.Sprintf("etcd did not answer in time, try again: %v", err), RetryAfterSeconds)
		}
	}
	if errors.Is(err, rpctypes.ErrTooManyRequests) {
		return apierrors.NewTooManyRequests(fmt.Sprintf("etcd is overloaded, try again: %v", err), RetryAfterSeconds)
	}
	if grpcCode(err) == codes.Unavailable {
		unavailable := apierrors.NewServiceUnavailable(fmt.Sprintf("etcd is unavailable, try again: %v", err))
		unavailable.ErrStatus.Details = &metav1.StatusDetails{RetryAfterSeconds: RetryAfterSeconds}
		return unavailable
	}
	return err
}

// grpcCode is the gRPC code of an error from etcd's client: a typed etcd error or a
// gRPC status (codes.Unknown for anything else).
func grpcCode(err error) codes.Code {
	var etcdErr rpctypes.EtcdError
	if errors.As(err, &etcdErr) {
		return etcdErr.Code()
	}
	if s, ok := status.FromError(err); ok {
		return s.Code()
	}
	return codes.Unknown
}
