package podworkload

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
)

// Revisions are a workload's revisions as one sync sees them.
type Revisions struct {
	// Update is the revision of the current template; Current is status.currentRevision
	// while it still exists, else Update.
	Update, Current *appsv1.ControllerRevision
	// All are the workload's revisions, oldest first.
	All []*appsv1.ControllerRevision
	// CollisionCount is the collision count to report in status.
	CollisionCount int32
	// specs memoises per-revision work within the sync.
	specs inplaceupdate.SpecCache
	// inPlaceAllowed is Workload.InPlaceAllowed.
	inPlaceAllowed func(from, to *appsv1.ControllerRevision) bool
}

// Toward returns the same history with rev as the revision pods are brought to: an
// in-place update through it takes a pod to rev (a CloneSet's partition rollback
// takes updated pods back to the current revision). Its per-revision work is its own.
func (r *Revisions) Toward(rev *appsv1.ControllerRevision) *Revisions {
	return &Revisions{Update: rev, Current: r.Current, All: r.All, CollisionCount: r.CollisionCount, inPlaceAllowed: r.inPlaceAllowed}
}

// ByName is the revision of that name, nil when it is gone from history.
func (r *Revisions) ByName(name string) *appsv1.ControllerRevision {
	for _, rev := range r.All {
		if rev.Name == name {
			return rev
		}
	}
	return nil
}

// Template is rev's pod template, decoded once per sync.
func (r *Revisions) Template(rev *appsv1.ControllerRevision) (*corev1.PodTemplateSpec, error) {
	return r.specs.Template(rev)
}

// IsUpdated reports whether pod runs the update revision.
func (r *Revisions) IsUpdated(pod *corev1.Pod) bool {
	return pod.Labels[pub.ControllerRevisionHashLabelKey] == r.Update.Name
}

// InPlaceSpec is the in-place update taking pod from its revision to the update
// revision, computed once per sync for all pods of a revision; nil when it cannot be
// done in place (the change touches more than in-place-able fields, the pod's
// revision is gone from history, the workload's InPlaceAllowed vetoes it (a CloneSet's
// claim templates changed), or it resizes containers and this pod cannot be
// resized: its node does not report container resources, or its QoS class would
// change; inplaceupdate.CanResize).
func (r *Revisions) InPlaceSpec(pod *corev1.Pod) (*inplaceupdate.UpdateSpec, error) {
	old := r.ByName(pod.Labels[pub.ControllerRevisionHashLabelKey])
	if old == nil || (r.inPlaceAllowed != nil && !r.inPlaceAllowed(old, r.Update)) {
		return nil, nil
	}
	spec, err := r.specs.Spec(old, r.Update)
	if err != nil || spec == nil || !inplaceupdate.CanResize(pod, spec) {
		return nil, err
	}
	return spec, nil
}
