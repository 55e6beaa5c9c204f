// Package uniteddeployment describes uniteddeployments.apps.kruise.io: names,
// accessors, validation, printed columns and scale (so that `kubectl scale ud` and an
// HorizontalPodAutoscaler work; the selector the Scale reports is the one the
// controller also writes to status.labelSelector). No rollback: OpenKruise has none
// for a UnitedDeployment, whose subsets roll out by their partitions.
package uniteddeployment

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
)

// Kind describes uniteddeployments.apps.kruise.io (`kubectl get ud`).
var Kind = resource.Kind[*apps.UnitedDeployment, apps.UnitedDeploymentSpec, apps.UnitedDeploymentStatus]{
	Group:      apps.GroupName,
	Versions:   []string{"v1beta1", "v1alpha1"},
	Plural:     "uniteddeployments",
	Singular:   "uniteddeployment",
	ShortNames: []string{"ud"},
	Categories: []string{"kruise"},
	New:        func() *apps.UnitedDeployment { return &apps.UnitedDeployment{} },
	NewList:    func() runtime.Object { return &apps.UnitedDeploymentList{} },
	Spec:       func(ud *apps.UnitedDeployment) *apps.UnitedDeploymentSpec { return &ud.Spec },
	Status:     func(ud *apps.UnitedDeployment) *apps.UnitedDeploymentStatus { return &ud.Status },
	Templates:  templates,
	// Both versions have the hub's shape: no ErrorPaths needed.
	Validate:             validation.ValidateUnitedDeployment,
	ValidateUpdate:       validation.ValidateUnitedDeploymentUpdate,
	ValidateStatusUpdate: validation.ValidateUnitedDeploymentStatusUpdate,
	Table:                TableConvertor,
	Scale: &resource.Scale[*apps.UnitedDeployment]{
		Replicas: func(ud *apps.UnitedDeployment) *int32 {
			if ud.Spec.Replicas == nil {
				ud.Spec.Replicas = new(int32)
			}
			return ud.Spec.Replicas
		},
		StatusReplicas: func(ud *apps.UnitedDeployment) int32 { return ud.Status.Replicas },
		Selector:       func(ud *apps.UnitedDeployment) *metav1.LabelSelector { return ud.Spec.Selector },
	},
}

// templates returns the pod and claim templates of whichever workload template is
// set, for kube's warnings about them.
func templates(ud *apps.UnitedDeployment) (*corev1.PodTemplateSpec, []corev1.PersistentVolumeClaim) {
	t := &ud.Spec.Template
	switch {
	case t.CloneSetTemplate != nil:
		return &t.CloneSetTemplate.Spec.Template, t.CloneSetTemplate.Spec.VolumeClaimTemplates
	case t.AdvancedStatefulSetTemplate != nil:
		return &t.AdvancedStatefulSetTemplate.Spec.Template, t.AdvancedStatefulSetTemplate.Spec.VolumeClaimTemplates
	case t.StatefulSetTemplate != nil:
		return &t.StatefulSetTemplate.Spec.Template, t.StatefulSetTemplate.Spec.VolumeClaimTemplates
	case t.DeploymentTemplate != nil:
		return &t.DeploymentTemplate.Spec.Template, nil
	}
	return nil, nil
}
