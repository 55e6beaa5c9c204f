package inplaceupdate

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podpatch"
)

// Executor sends what the pure functions of this package compute, at most one write per
// call. The pod it is given comes from the caller's informer cache; it never reads.
type Executor struct {
	// Pods sends the writes (podpatch.New: with the controller as field manager).
	Pods podpatch.Patcher
	// RevisionLabel is the pod label holding the revision; "" means controller-revision-hash.
	RevisionLabel string
	// Now returns the current time; nil means metav1.Now.
	Now func() metav1.Time
}

// Result is what one Executor call did.
type Result struct {
	// Pod is the pod the server returned, nil when nothing was written.
	Pod *corev1.Pod
	// RequeueAfter asks the caller to look at the pod again after this long (a grace
	// period runs); 0 means the next informer event is enough.
	RequeueAfter time.Duration
	// Completed reports that the update is finished (Refresh).
	Completed bool
}

// Update starts updating pod to spec in place. Without a grace period it sends ONE patch
// (first batch: images, revision label, labels/annotations, state), preceded by ONE
// pods/resize patch when container resources change (send). With
// strategy.GracePeriodSeconds > 0 it sends ONE pods/status patch instead: revision
// label, state and the grace annotation, plus InPlaceUpdateReady=False (and Ready=False)
// when the pod carries the gate; Refresh applies the spec after the grace.
func (e *Executor) Update(ctx context.Context, pod *corev1.Pod, spec *UpdateSpec, strategy *pub.InPlaceUpdateStrategy) (Result, error) {
	now := e.now()
	s := *spec
	s.GraceSeconds = 0
	// A resize that restarts no container leaves the pod serving: nothing to drain.
	if NeedsNotReadyFirst(strategy) && (!spec.VerticalOnly() || ResizeRestarts(pod, spec)) {
		s.GraceSeconds = strategy.GracePeriodSeconds
	}
	newPod, err := Prepare(pod, &s, e.RevisionLabel, now)
	if err != nil {
		return Result{}, err
	}
	if s.GraceSeconds == 0 {
		return e.send(ctx, pod, newPod)
	}
	if hasReadinessGate(pod, inPlaceUpdateReady) {
		SetReadyCondition(newPod, corev1.ConditionFalse, ReasonStartInPlaceUpdate, now)
	}
	res, err := e.send(ctx, pod, newPod)
	res.RequeueAfter = time.Duration(s.GraceSeconds) * time.Second
	return res, err
}

// Refresh moves the pod's in-place update on by at most one write: the spec once a grace
// period is over, the next container batch once the previous one is updated and ready,
// or InPlaceUpdateReady=True once everything is (no write if it already is).
func (e *Executor) Refresh(ctx context.Context, pod *corev1.Pod) (Result, error) {
	now := e.now()
	if _, waiting := pod.Annotations[pub.InPlaceUpdateGraceKey]; waiting {
		if left := GraceRemaining(pod, now); left > 0 {
			return Result{RequeueAfter: left}, nil
		}
		return e.next(ctx, pod, now)
	}
	completed, nextBatch := CheckCompleted(pod)
	switch {
	case nextBatch:
		return e.next(ctx, pod, now)
	case !completed:
		return Result{}, nil
	}
	newPod := pod.DeepCopy()
	if !Finish(newPod, now) {
		return Result{Completed: true}, nil
	}
	res, err := e.send(ctx, pod, newPod)
	res.Completed = err == nil
	return res, err
}

func (e *Executor) next(ctx context.Context, pod *corev1.Pod, now metav1.Time) (Result, error) {
	newPod, err := PrepareNext(pod, e.RevisionLabel, now)
	if err != nil || newPod == nil {
		return Result{}, err
	}
	return e.send(ctx, pod, newPod)
}

// send patches old into new: container resources first, to pods/resize (the pod itself
// refuses them); then the rest to pods/status when conditions change (that endpoint also
// takes the label and annotation changes, and ignores spec), to the pod otherwise (which
// ignores status). A change of both images and conditions cannot be one write.
//
// The resize goes first because it is the disruption a PodUnavailableBudget guards
// (the patch that follows only moves the revision label and the state when no image
// changes): refused (429), it leaves the pod untouched at its old revision, to be
// tried again like a refused image update. The other order would leave a pod marked
// as updating, counted unavailable, waiting for a slot it itself holds back. A resize
// sent before a failed second write is not sent again: the next try finds the pod's
// spec already at the new resources (ResizeBytes has nothing to send).
func (e *Executor) send(ctx context.Context, old, new *corev1.Pod) (Result, error) {
	resize, err := podpatch.ResizeBytes(old, new)
	if err != nil {
		return Result{}, err
	}
	var resized *corev1.Pod
	if resize != nil {
		if resized, err = e.Pods.Patch(ctx, old.Namespace, old.Name, types.StrategicMergePatchType, resize, podpatch.ResizeSubresource); err != nil {
			return Result{}, err
		}
	}
	data, err := podpatch.Bytes(old, new)
	if err != nil || data == nil {
		return Result{Pod: resized}, err
	}
	var sub []string
	if conds, _ := podpatch.DiffConditions(old.Status.Conditions, new.Status.Conditions); len(conds) > 0 {
		if images, _ := podpatch.DiffImages(old.Spec.Containers, new.Spec.Containers); len(images) > 0 {
			return Result{}, fmt.Errorf("pod %s/%s: images and conditions cannot change in one write", old.Namespace, old.Name)
		}
		sub = []string{"status"}
	}
	p, err := e.Pods.Patch(ctx, old.Namespace, old.Name, types.StrategicMergePatchType, data, sub...)
	if err != nil {
		return Result{}, err
	}
	return Result{Pod: p}, nil
}

func (e *Executor) now() metav1.Time {
	if e.Now != nil {
		return e.Now()
	}
	return metav1.Now()
}
