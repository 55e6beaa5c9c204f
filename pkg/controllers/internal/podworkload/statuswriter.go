package podworkload

import (
	"context"
	"fmt"
	"time"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
)

// StatusAPI is what a StatusWriter needs of one kind: the status an object carries,
// and its status subresource.
type StatusAPI[T Object, S any] interface {
	// Status is the status obj carries.
	Status(obj T) S
	// UpdateStatus writes a copy of obj carrying status and returns the object written.
	UpdateStatus(ctx context.Context, obj T, status S) (T, error)
}

// DeferralRule is implemented by a StatusAPI whose status write may be left to a later
// sync while the sync's own pod writes are about to change its counts (see
// statusDeferrals).
type DeferralRule[S any] interface {
	// Urgent reports whether computed says something new about the workload itself (a
	// generation, a revision, how many pods it wants), which is written at once.
	Urgent(stored, computed S) bool
}

// ExactStatus is implemented by a StatusAPI whose status carries times that are news
// (a last schedule time), not only condition timestamps: its status is unchanged only
// when it is semantically equal, times included.
type ExactStatus interface {
	ExactStatus()
}

// Outcome is what the sync that computed a status says about itself.
type Outcome struct {
	// PodWrites: the sync sent pod writes, whose watch events bring another sync.
	PodWrites bool
	// Failed: the sync failed; its status (which reports the failure) is written at once.
	Failed bool
	// Requeue collects when the sync wants to look again; a deferral asks it for a sync
	// before the lag runs out. nil: the write is never deferred.
	Requeue *Requeue
}

// StatusWriter is the one writer of a kind's status, shared by its syncs:
//   - a status unchanged beyond condition timestamps (StatusUnchanged; times included
//     for an ExactStatus kind) is not written;
//   - the resourceVersion each write returns is remembered, and Current holds the
//     syncs off an informer copy older than that: a sync on it would work from the
//     status before the write, and its own status write would only fail with a
//     conflict. The write's watch event brings the next sync, as for a pod write;
//   - a kind with a DeferralRule leaves a write the rule allows to a later sync, for at
//     most MaxStatusLag.
//
// Safe for concurrent use; one per controller.
type StatusWriter[T Object, S any] struct {
	api       StatusAPI[T, S]
	written   *expectations.ResourceVersion
	deferrals statusDeferrals
	now       func() time.Time
}

// NewStatusWriter returns the status writer of the kind api serves.
func NewStatusWriter[T Object, S any](api StatusAPI[T, S]) *StatusWriter[T, S] {
	return &StatusWriter[T, S]{api: api, written: expectations.NewResourceVersion(), now: time.Now}
}

// Current reports whether the cached obj is at least as new as the last status this
// writer wrote of it. A sync given false does nothing: the write's event syncs again.
func (w *StatusWriter[T, S]) Current(ctx context.Context, obj metav1.Object) bool {
	if w.written.Observe(obj) {
		return true
	}
	klog.FromContext(ctx).V(4).Info("Waiting for the last status write to reach the cache")
	return false
}

// Write writes computed as obj's status, unless it is unchanged or deferred. It
// returns the object written, or the zero value when nothing was written or the
// workload is gone.
func (w *StatusWriter[T, S]) Write(ctx context.Context, obj T, computed S, o Outcome) (T, error) {
	var zero T
	stored := w.api.Status(obj)
	k := key(obj)
	if w.unchanged(stored, computed) {
		w.deferrals.Forget(k)
		return zero, nil
	}
	if rule, ok := w.api.(DeferralRule[S]); ok && o.Requeue != nil {
		deferrable := o.PodWrites && !o.Failed && !rule.Urgent(stored, computed)
		if w.deferrals.Defer(k, w.now(), deferrable, o.Requeue) {
			return zero, nil
		}
	}
	out, err := w.api.UpdateStatus(ctx, obj, computed)
	if apierrors.IsNotFound(err) {
		return zero, nil
	}
	if err != nil {
		return zero, fmt.Errorf("updating status: %w", err)
	}
	w.written.Expect(out)
	return out, nil
}

// unchanged applies StatusUnchanged, or exact equality for an ExactStatus kind.
func (w *StatusWriter[T, S]) unchanged(stored, computed S) bool {
	if _, exact := w.api.(ExactStatus); exact {
		return apiequality.Semantic.DeepEqual(stored, computed)
	}
	return StatusUnchanged(stored, computed)
}

// Forget drops what the writer remembers of a deleted workload.
func (w *StatusWriter[T, S]) Forget(obj metav1.Object) {
	w.written.Forget(obj.GetUID())
	w.deferrals.Forget(key(obj))
}
