package ttl

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Expire deletes a finished object once its TTL has passed (del issues the delete,
// guarded by the object's UID), and otherwise returns how long until it should look
// again (0: never). A delete that finds the object already gone (NotFound) or
// replaced by a namesake (the UID precondition's Conflict) has nothing left to do.
func Expire(ctx context.Context, finishedAt *metav1.Time, ttlSecondsAfterFinished *int32, now time.Time,
	del func(ctx context.Context) error) (time.Duration, error) {
	left, expires := Left(finishedAt, ttlSecondsAfterFinished, now)
	if !expires {
		return 0, nil
	}
	if left > 0 {
		return left, nil
	}
	if err := del(ctx); err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		return 0, err
	}
	return 0, nil
}
