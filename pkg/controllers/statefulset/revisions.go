package statefulset

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/revision"
)

// syncRevisions records the template as a ControllerRevision (the one history format
// the rollback subresource reads back) and settles the current revision: the one in
// status while it still exists, else the update revision.
func (c *Controller) syncRevisions(st *syncState, owned []*corev1.Pod) error {
	res, err := revision.SyncWorkload(c.history, revision.Workload{
		Owner: revision.Owner{Object: st.owner, Kind: controllerKind, Template: &st.set.Spec.Template,
			CollisionCount: st.set.Status.CollisionCount},
		Selector: st.set.Spec.Selector, Pods: owned,
		CurrentRevision: st.set.Status.CurrentRevision, RevisionHistoryLimit: st.set.Spec.RevisionHistoryLimit,
	})
	if err != nil {
		return err
	}
	st.updateRev, st.revisions, st.collisions = res.Update, res.Revisions, res.CollisionCount
	st.currentRev = res.Current
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
