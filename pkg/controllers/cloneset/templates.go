package cloneset

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
)

// template is rev's pod template, decoded once per sync (see inplaceupdate.SpecCache).
func (st *syncState) template(rev *appsv1.ControllerRevision) (*corev1.PodTemplateSpec, error) {
	return st.specs.Template(rev)
}

// inPlaceSpec is the in-place update from oldRev to the update revision (nil when it
// cannot be done in place), computed once per sync for all pods of oldRev.
func (st *syncState) inPlaceSpec(oldRev *appsv1.ControllerRevision) (*inplaceupdate.UpdateSpec, error) {
	return st.specs.Spec(oldRev, st.updateRev)
}
