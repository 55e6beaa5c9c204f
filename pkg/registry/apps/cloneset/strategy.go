// Package cloneset holds what is particular to CloneSets in the registry: how the
// shared workload strategies reach their fields, and the printed columns.
package cloneset

import (
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

var kind = workload.Kind[*apps.CloneSet]{
	ResetStatus: func(cs *apps.CloneSet) { cs.Status = apps.CloneSetStatus{} },
	KeepStatus:  func(cs, old *apps.CloneSet) { cs.Status = old.Status },
	KeepSpec:    func(cs, old *apps.CloneSet) { cs.Spec = old.Spec },
	SpecChanged: func(cs, old *apps.CloneSet) bool { return !apiequality.Semantic.DeepEqual(cs.Spec, old.Spec) },
	Templates: func(cs *apps.CloneSet) (*corev1.PodTemplateSpec, []corev1.PersistentVolumeClaim) {
		return &cs.Spec.Template, cs.Spec.VolumeClaimTemplates
	},
	Validate:             validation.ValidateCloneSet,
	ValidateUpdate:       validation.ValidateCloneSetUpdate,
	ValidateStatusUpdate: validation.ValidateCloneSetStatusUpdate,
	ErrorPaths:           errorPaths,
}

// NewStrategy returns the strategy of the main clonesets endpoint.
func NewStrategy(typer runtime.ObjectTyper) workload.Strategy {
	return workload.NewStrategy(typer, kind)
}

// NewStatusStrategy returns the strategy of clonesets/status.
func NewStatusStrategy(typer runtime.ObjectTyper) workload.StatusStrategy {
	return workload.NewStatusStrategy(typer, kind)
}
