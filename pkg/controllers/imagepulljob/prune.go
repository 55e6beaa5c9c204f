package imagepulljob

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/ttl"
)

// nodeImageKeyPrefix marks the queue keys of NodeImages whose tags may need pruning.
const nodeImageKeyPrefix = "nodeimage:"

func (c *Controller) enqueueNodeImage(obj interface{}) {
	if ni, ok := obj.(*v1alpha1.NodeImage); ok {
		c.loop.Add(nodeImageKeyPrefix + ni.Name)
	}
}

// prune removes expired and orphaned tags of NodeImage name and says when to look
// again for the next TTL.
func (c *Controller) prune(ctx context.Context, name string) (time.Duration, error) {
	ni, err := c.nodeImages.Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if ni.DeletionTimestamp != nil {
		return 0, nil
	}
	spec, next := PruneTags(ni, c.jobExists, c.now())
	if spec == nil {
		return next, nil
	}
	updated := ni.DeepCopy()
	updated.Spec = *spec
	_, err = c.kruiseClient.AppsV1alpha1().NodeImages().Update(ctx, updated, metav1.UpdateOptions{FieldManager: ControllerName})
	if apierrors.IsNotFound(err) {
		return 0, nil
	}
	// A conflict (a job's tag written meanwhile, or a user's) is retried by the queue
	// on the fresh NodeImage.
	return next, wrap(err, "pruning tags of NodeImage %s", name)
}

func (c *Controller) jobExists(ref corev1.ObjectReference) bool {
	job, err := c.jobs.ImagePullJobs(ref.Namespace).Get(ref.Name)
	return err == nil && (ref.UID == "" || job.UID == ref.UID)
}

// nodeImagesOwnedBy lists the NodeImages with a tag owned by the job with uid.
func (c *Controller) nodeImagesOwnedBy(uid types.UID) []string {
	all, err := c.nodeImages.List(labels.Everything())
	if err != nil {
		return nil
	}
	var names []string
	for _, ni := range all {
		if ownsTag(ni, uid) {
			names = append(names, ni.Name)
		}
	}
	return names
}

// imagePullJobKind is the kind a tag's owner reference names for a job.
const imagePullJobKind = "ImagePullJob"

// PruneTags returns the spec without the tags that should go, or nil when every tag
// stays, and how long until the next tag's TTL runs out (0: none pending).
//
// A tag goes when its pull finished (Succeeded or Failed, for the tag's current
// version) more than ttlSecondsAfterFinished ago, or when it was asked for by jobs
// (owner references) and none of them exists any more. Tags nobody owns (added by
// hand, as in the documented NodeImage patch) stay until their TTL.
func PruneTags(ni *v1alpha1.NodeImage, jobExists func(corev1.ObjectReference) bool, now time.Time) (*v1alpha1.NodeImageSpec, time.Duration) {
	var next time.Duration
	changed := false
	spec := ni.Spec.DeepCopy()
	for name, img := range spec.Images {
		kept := img.Tags[:0]
		for _, tag := range img.Tags {
			if owners, ownersChanged := liveOwners(tag.OwnerReferences, jobExists); ownersChanged {
				changed = true
				if len(owners) == 0 {
					continue // every job that asked for the tag is gone
				}
				tag.OwnerReferences = owners
			}
			if left, expires := ttlLeft(ni, name, &tag, now); expires {
				if left <= 0 {
					changed = true
					continue
				}
				if next == 0 || left < next {
					next = left
				}
			}
			kept = append(kept, tag)
		}
		if len(kept) == 0 {
			delete(spec.Images, name)
			changed = true
			continue
		}
		img.Tags = kept
		spec.Images[name] = img
	}
	if !changed {
		return nil, next
	}
	return spec, next
}

// liveOwners drops owner references to jobs that no longer exist.
func liveOwners(refs []corev1.ObjectReference, jobExists func(corev1.ObjectReference) bool) ([]corev1.ObjectReference, bool) {
	var live []corev1.ObjectReference
	for _, r := range refs {
		if r.Kind == imagePullJobKind && !jobExists(r) {
			continue
		}
		live = append(live, r)
	}
	return live, len(live) != len(refs)
}

// ttlLeft is the time until a finished tag expires; expires is false when the tag has
// no TTL or its pull (of this version) has not finished.
func ttlLeft(ni *v1alpha1.NodeImage, name string, tag *v1alpha1.ImageTagSpec, now time.Time) (time.Duration, bool) {
	if tag.PullPolicy == nil || tag.PullPolicy.TTLSecondsAfterFinished == nil {
		return 0, false
	}
	for _, st := range ni.Status.ImageStatuses[name].Tags {
		if st.Tag != tag.Tag || st.Version != tag.Version || st.CompletionTime == nil {
			continue
		}
		if st.Phase != v1alpha1.ImagePhaseSucceeded && st.Phase != v1alpha1.ImagePhaseFailed {
			continue
		}
		return ttl.Left(st.CompletionTime, tag.PullPolicy.TTLSecondsAfterFinished, now)
	}
	return 0, false
}

// ownsTag reports whether a tag of ni lists the job with uid as an owner.
func ownsTag(ni *v1alpha1.NodeImage, uid types.UID) bool {
	for _, img := range ni.Spec.Images {
		for _, tag := range img.Tags {
			for _, r := range tag.OwnerReferences {
				if r.UID == uid {
					return true
				}
			}
		}
	}
	return false
}

// deleteHandler calls f for each deleted job (also a tombstone's).
func deleteHandler(f func(job *v1alpha1.ImagePullJob)) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{DeleteFunc: func(obj interface{}) {
		if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		if job, ok := obj.(*v1alpha1.ImagePullJob); ok {
			f(job)
		}
	}}
}
