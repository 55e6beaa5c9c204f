// Package statefulset holds what is particular to Advanced StatefulSets in the registry: how the
// shared workload strategies reach their fields, and the printed columns.
package statefulset

import (
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

var kind = workload.Kind[*apps.StatefulSet]{
	ResetStatus: func(ss *apps.StatefulSet) { ss.Status = apps.StatefulSetStatus{} },
	KeepStatus:  func(ss, old *apps.StatefulSet) { ss.Status = old.Status },
	KeepSpec:    func(ss, old *apps.StatefulSet) { ss.Spec = old.Spec },
	SpecChanged: func(ss, old *apps.StatefulSet) bool { return !apiequality.Semantic.DeepEqual(ss.Spec, old.Spec) },
	Templates: func(ss *apps.StatefulSet) (*corev1.PodTemplateSpec, []corev1.PersistentVolumeClaim) {
		return &ss.Spec.Template, ss.Spec.VolumeClaimTemplates
	},
	Validate:             validation.ValidateStatefulSet,
	ValidateUpdate:       validation.ValidateStatefulSetUpdate,
	ValidateStatusUpdate: validation.ValidateStatefulSetStatusUpdate,
}

// NewStrategy returns the strategy of the main statefulsets endpoint.
func NewStrategy(typer runtime.ObjectTyper) workload.Strategy {
	return workload.NewStrategy(typer, kind)
}

// NewStatusStrategy returns the strategy of statefulsets/status.
func NewStatusStrategy(typer runtime.ObjectTyper) workload.StatusStrategy {
	return workload.NewStatusStrategy(typer, kind)
}
