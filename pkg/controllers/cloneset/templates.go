package cloneset

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/revision"
)

// template decodes a revision's pod template once per sync: a rollout of many pods
// from the same revision must not decode it once per pod.
func (st *syncState) template(rev *appsv1.ControllerRevision) (*corev1.PodTemplateSpec, error) {
	if t, ok := st.templates[rev.Name]; ok {
		return t, nil
	}
	t, err := revision.Template(rev)
	if err != nil {
		return nil, err
	}
	if st.templates == nil {
		st.templates = map[string]*corev1.PodTemplateSpec{}
	}
	st.templates[rev.Name] = t
	return t, nil
}

// inPlaceSpec is the in-place update from one revision to the update revision (nil
// when it cannot be done in place), computed once per sync for all pods of oldRev.
func (st *syncState) inPlaceSpec(oldRev *appsv1.ControllerRevision) (*inplaceupdate.UpdateSpec, error) {
	if spec, ok := st.inPlaceSpecs[oldRev.Name]; ok {
		return spec, nil
	}
	oldTmpl, err := st.template(oldRev)
	if err != nil {
		return nil, err
	}
	newTmpl, err := st.template(st.updateRev)
	if err != nil {
		return nil, err
	}
	spec := inplaceupdate.CalculateSpec(oldTmpl, newTmpl, st.updateRev.Name)
	if st.inPlaceSpecs == nil {
		st.inPlaceSpecs = map[string]*inplaceupdate.UpdateSpec{}
	}
	st.inPlaceSpecs[oldRev.Name] = spec
	return spec, nil
}
