// Package revision keeps a workload's pod-template history as ControllerRevisions,
// labelled controller-revision-hash, for every Kruise workload: the revision a pod was
// made from is how rollouts tell old pods from new, and how rollback finds a template.
package revision

import (
	"fmt"
	"maps"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/kubernetes/pkg/controller/history"

	"github.com/kruise-native/kruise-native/pkg/revisiondata"
)

// Owner is a workload whose template history is kept.
type Owner struct {
	Object         metav1.Object
	Kind           schema.GroupVersionKind
	Template       *corev1.PodTemplateSpec
	CollisionCount *int32
	// HistoryLimit is how many revisions beyond the ones pods use are kept.
	HistoryLimit int32
	// Annotations, when set, are what is written on a revision when it is created (a
	// CloneSet's claim template hash, claimtemplate.Annotations). They are not part of
	// its identity: a revision of the same template is reused as it is, so Sync calls
	// Annotations only when it creates one.
	Annotations func() map[string]string
}

func newRevision(o Owner, number int64) (*appsv1.ControllerRevision, error) {
	data, err := revisiondata.Encode(o.Template)
	if err != nil {
		return nil, err
	}
	rev, err := history.NewControllerRevision(o.Object, o.Kind, o.Template.Labels, runtime.RawExtension{Raw: data}, number, o.CollisionCount)
	if err != nil {
		return nil, err
	}
	annotate(rev, o)
	return rev, nil
}

// annotate writes o's annotations, a copy, on rev.
func annotate(rev *appsv1.ControllerRevision, o Owner) {
	if o.Annotations == nil {
		return
	}
	if a := o.Annotations(); len(a) > 0 {
		rev.Annotations = maps.Clone(a)
	}
}

// Template returns the pod template a revision stores.
func Template(rev *appsv1.ControllerRevision) (*corev1.PodTemplateSpec, error) {
	return revisiondata.Decode(rev)
}

// Result is the outcome of Sync.
type Result struct {
	// Update is the revision of the owner's current template.
	Update *appsv1.ControllerRevision
	// Revisions are all the owner's revisions after Sync, oldest first.
	Revisions []*appsv1.ControllerRevision
	// CollisionCount is the (possibly increased) collision count to write to status.
	CollisionCount int32
}

// Sync makes sure a revision for the owner's template exists and is the newest, and
// removes old revisions beyond HistoryLimit that no pod uses (inUse: revision names).
func Sync(h history.Interface, o Owner, revisions []*appsv1.ControllerRevision, inUse sets.Set[string]) (*Result, error) {
	history.SortControllerRevisions(revisions)
	var collisionCount int32
	if o.CollisionCount != nil {
		collisionCount = *o.CollisionCount
	}
	next := int64(1)
	if n := len(revisions); n > 0 {
		next = revisions[n-1].Revision + 1
	}
	owner := o
	owner.CollisionCount = &collisionCount
	// Revisions are told equal by their data: the candidate goes without annotations
	// unless it is to be created.
	owner.Annotations = nil
	candidate, err := newRevision(owner, next)
	if err != nil {
		return nil, err
	}

	var update *appsv1.ControllerRevision
	if equal := history.FindEqualRevisions(revisions, candidate); len(equal) > 0 {
		update = equal[len(equal)-1]
		if update.Revision != revisions[len(revisions)-1].Revision {
			// Rolling back to an earlier template: make its revision the newest again.
			if update, err = h.UpdateControllerRevision(update, next); err != nil {
				return nil, err
			}
		}
	} else {
		annotate(candidate, o)
		if update, err = create(h, o, candidate, &collisionCount); err != nil {
			return nil, err
		}
	}

	revisions, err = prune(h, o, revisions, inUse.Clone().Insert(update.Name))
	if err != nil {
		return nil, err
	}
	revisions = replace(revisions, update)
	history.SortControllerRevisions(revisions)
	return &Result{Update: update, Revisions: revisions, CollisionCount: collisionCount}, nil
}

// maxForeignCollisions bounds the retries when revision names are taken by other owners.
const maxForeignCollisions = 10

// create stores the candidate revision. A revision of the same name and data can
// already exist for another owner — a deleted namesake whose revisions the garbage
// collector has not removed yet; kube's history hands that one back, but it is not
// ours (we would not find it among our revisions, nor keep it): take the next name.
func create(h history.Interface, o Owner, candidate *appsv1.ControllerRevision, collisionCount *int32) (*appsv1.ControllerRevision, error) {
	for range maxForeignCollisions {
		rev, err := h.CreateControllerRevision(o.Object, candidate, collisionCount)
		if err != nil {
			return nil, err
		}
		if ref := metav1.GetControllerOf(rev); ref != nil && ref.UID == o.Object.GetUID() {
			return rev, nil
		}
		*collisionCount++
	}
	return nil, fmt.Errorf("revision names for %s/%s are all taken by other owners", o.Object.GetNamespace(), o.Object.GetName())
}

// prune deletes the oldest unused revisions beyond the history limit.
func prune(h history.Interface, o Owner, revisions []*appsv1.ControllerRevision, inUse sets.Set[string]) ([]*appsv1.ControllerRevision, error) {
	var unused []*appsv1.ControllerRevision
	for _, r := range revisions {
		if !inUse.Has(r.Name) {
			unused = append(unused, r)
		}
	}
	excess := len(unused) - int(o.HistoryLimit)
	if excess <= 0 {
		return revisions, nil
	}
	sort.SliceStable(unused, func(i, j int) bool { return unused[i].Revision < unused[j].Revision })
	deleted := sets.New[string]()
	for _, r := range unused[:excess] {
		if err := h.DeleteControllerRevision(r); err != nil && !apierrors.IsNotFound(err) {
			return nil, err
		}
		deleted.Insert(r.Name)
	}
	kept := revisions[:0:0]
	for _, r := range revisions {
		if !deleted.Has(r.Name) {
			kept = append(kept, r)
		}
	}
	return kept, nil
}

func replace(revisions []*appsv1.ControllerRevision, rev *appsv1.ControllerRevision) []*appsv1.ControllerRevision {
	out := make([]*appsv1.ControllerRevision, 0, len(revisions)+1)
	found := false
	for _, r := range revisions {
		if r.Name == rev.Name {
			out = append(out, rev)
			found = true
			continue
		}
		out = append(out, r)
	}
	if !found {
		out = append(out, rev)
	}
	return out
}
