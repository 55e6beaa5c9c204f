package sidecarset

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/kubernetes/pkg/controller/history"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
)

// syncRevision makes sure the newest ControllerRevision of the SidecarSet records its
// current sidecars, in the revision namespace (the SidecarSet has none), and drops old
// revisions beyond revisionHistoryLimit that no pod records. It returns the current
// revision's name and the collision count to report.
func (c *Controller) syncRevision(ctx context.Context, v *v1beta1.SidecarSet, ss *apps.SidecarSet, inUse sets.Set[string]) (string, int32, error) {
	selector := labels.SelectorFromSet(labels.Set{sidecarset.RevisionLabel: ss.Name})
	all, err := c.revisions.ControllerRevisions(sidecarset.RevisionNamespace).List(selector)
	if err != nil {
		return "", 0, err
	}
	var revs []*appsv1.ControllerRevision
	for _, r := range all {
		if metav1.IsControlledBy(r, ss) {
			revs = append(revs, r)
		}
	}
	history.SortControllerRevisions(revs)
	data, err := sidecarset.EncodeRevision(v)
	if err != nil {
		return "", 0, fmt.Errorf("encoding the revision: %w", err)
	}
	var collisionCount int32
	if ss.Status.CollisionCount != nil {
		collisionCount = *ss.Status.CollisionCount
	}
	next := int64(1)
	if n := len(revs); n > 0 {
		next = revs[n-1].Revision + 1
	}
	revLabels := map[string]string{sidecarset.RevisionLabel: ss.Name}
	if cv, ok := ss.Labels[pub.SidecarSetCustomVersionLabel]; ok {
		revLabels[pub.SidecarSetCustomVersionLabel] = cv
	}
	// A cluster-scoped parent: its revisions live in the revision namespace.
	parent := &metav1.ObjectMeta{Name: ss.Name, Namespace: sidecarset.RevisionNamespace, UID: ss.UID}
	candidate, err := history.NewControllerRevision(parent, controllerKind, revLabels, runtime.RawExtension{Raw: data}, next, &collisionCount)
	if err != nil {
		return "", 0, err
	}
	var current *appsv1.ControllerRevision
	if equal := history.FindEqualRevisions(revs, candidate); len(equal) > 0 {
		current = equal[len(equal)-1]
		if current.Revision != revs[len(revs)-1].Revision {
			// Back to an earlier spec: its revision becomes the newest again.
			if current, err = c.history.UpdateControllerRevision(current, next); err != nil {
				return "", 0, err
			}
		}
	} else if current, err = c.history.CreateControllerRevision(parent, candidate, &collisionCount); err != nil {
		return "", 0, err
	}

	limit := 10
	if ss.Spec.RevisionHistoryLimit != nil {
		limit = int(*ss.Spec.RevisionHistoryLimit)
	}
	var old []*appsv1.ControllerRevision
	for _, r := range revs {
		if r.Name != current.Name && !inUse.Has(r.Name) {
			old = append(old, r)
		}
	}
	for i := 0; i < len(old)-limit; i++ {
		err := c.history.DeleteControllerRevision(old[i])
		if err != nil && !apierrors.IsNotFound(err) {
			return "", 0, err
		}
	}
	return current.Name, collisionCount, nil
}
