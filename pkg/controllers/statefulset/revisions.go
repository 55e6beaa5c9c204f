package statefulset

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/revision"
)

// syncRevisions records the template as a ControllerRevision (the one history format
// the rollback subresource reads back) and settles the current revision: the one in
// status while it still exists, else the update revision.
func (c *Controller) syncRevisions(st *syncState, owned []*corev1.Pod) error {
	selector, err := metav1.LabelSelectorAsSelector(st.set.Spec.Selector)
	if err != nil {
		return err
	}
	revs, err := c.history.ListControllerRevisions(st.owner, controllerKind, selector)
	if err != nil {
		return wrap(err, "listing revisions")
	}
	inUse := sets.New[string]()
	for _, pod := range owned {
		if h := pod.Labels[pub.ControllerRevisionHashLabelKey]; h != "" {
			inUse.Insert(h)
		}
	}
	if st.set.Status.CurrentRevision != "" {
		inUse.Insert(st.set.Status.CurrentRevision)
	}
	limit := int32(10)
	if st.set.Spec.RevisionHistoryLimit != nil {
		limit = *st.set.Spec.RevisionHistoryLimit
	}
	res, err := revision.Sync(c.history, revision.Owner{
		Object: st.owner, Kind: controllerKind, Template: &st.set.Spec.Template,
		CollisionCount: st.set.Status.CollisionCount, HistoryLimit: limit,
	}, revs, inUse)
	if err != nil {
		return wrap(err, "syncing revisions")
	}
	st.updateRev, st.revisions, st.collisions = res.Update, res.Revisions, res.CollisionCount
	st.currentRev = st.revisionByName(st.set.Status.CurrentRevision)
	if st.currentRev == nil {
		st.currentRev = st.updateRev
	}
	return nil
}

func (st *syncState) revisionByName(name string) *appsv1.ControllerRevision {
	for _, r := range st.revisions {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// template is rev's pod template, decoded once per sync (see inplaceupdate.SpecCache).
func (st *syncState) template(rev *appsv1.ControllerRevision) (*corev1.PodTemplateSpec, error) {
	return st.specs.Template(rev)
}

// inPlaceSpec is the in-place update from oldRev to the update revision (nil when it
// cannot be done in place), computed once per sync for all pods of oldRev.
func (st *syncState) inPlaceSpec(oldRev *appsv1.ControllerRevision) (*inplaceupdate.UpdateSpec, error) {
	return st.specs.Spec(oldRev, st.updateRev)
}
