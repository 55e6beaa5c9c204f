package kubectlkruise

import (
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubectl/pkg/polymorphichelpers"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// kruisePodTemplate returns the pod template of a Kruise workload in either served
// version, or false for anything else.
func kruisePodTemplate(obj runtime.Object) (*corev1.PodTemplateSpec, bool) {
	switch o := obj.(type) {
	case *v1alpha1.CloneSet:
		return &o.Spec.Template, true
	case *v1beta1.CloneSet:
		return &o.Spec.Template, true
	case *v1alpha1.StatefulSet:
		return &o.Spec.Template, true
	case *v1beta1.StatefulSet:
		return &o.Spec.Template, true
	case *v1alpha1.DaemonSet:
		return &o.Spec.Template, true
	case *v1beta1.DaemonSet:
		return &o.Spec.Template, true
	case *v1alpha1.BroadcastJob:
		return &o.Spec.Template, true
	case *v1beta1.BroadcastJob:
		return &o.Spec.Template, true
	// An AdvancedCronJob's pods are those of the Job or BroadcastJob it creates (an
	// ImageListPullJob template has no pod template).
	case *v1alpha1.AdvancedCronJob:
		if t := o.Spec.Template.JobTemplate; t != nil {
			return &t.Spec.Template, true
		}
		if t := o.Spec.Template.BroadcastJobTemplate; t != nil {
			return &t.Spec.Template, true
		}
	case *v1beta1.AdvancedCronJob:
		if t := o.Spec.Template.JobTemplate; t != nil {
			return &t.Spec.Template, true
		}
		if t := o.Spec.Template.BroadcastJobTemplate; t != nil {
			return &t.Spec.Template, true
		}
	// A UnitedDeployment's pods come from the one workload template it holds; each
	// subset's workload is made from it.
	case *v1alpha1.UnitedDeployment:
		t := &o.Spec.Template
		switch {
		case t.CloneSetTemplate != nil:
			return &t.CloneSetTemplate.Spec.Template, true
		case t.AdvancedStatefulSetTemplate != nil:
			return &t.AdvancedStatefulSetTemplate.Spec.Template, true
		case t.StatefulSetTemplate != nil:
			return &t.StatefulSetTemplate.Spec.Template, true
		case t.DeploymentTemplate != nil:
			return &t.DeploymentTemplate.Spec.Template, true
		}
	case *v1beta1.UnitedDeployment:
		t := &o.Spec.Template
		switch {
		case t.CloneSetTemplate != nil:
			return &t.CloneSetTemplate.Spec.Template, true
		case t.AdvancedStatefulSetTemplate != nil:
			return &t.AdvancedStatefulSetTemplate.Spec.Template, true
		case t.StatefulSetTemplate != nil:
			return &t.StatefulSetTemplate.Spec.Template, true
		case t.DeploymentTemplate != nil:
			return &t.DeploymentTemplate.Spec.Template, true
		}
	}
	return nil, false
}

// updatePodSpecWith returns kubectl's UpdatePodSpecForObject extended to the Kruise
// workloads: ours are edited through their template, everything else goes to builtin
// (kubectl's own helper, which knows Pods, Deployments, Jobs, ...).
func updatePodSpecWith(builtin polymorphichelpers.UpdatePodSpecForObjectFunc) polymorphichelpers.UpdatePodSpecForObjectFunc {
	return func(obj runtime.Object, fn func(*corev1.PodSpec) error) (bool, error) {
		if tmpl, ok := kruisePodTemplate(obj); ok {
			return true, fn(&tmpl.Spec)
		}
		return builtin(obj, fn)
	}
}

var installOnce sync.Once

// installPolymorphicHelpers makes kubectl's set commands, which look the helper up in
// polymorphichelpers when they run, reach the pod templates of Kruise workloads.
func installPolymorphicHelpers() {
	installOnce.Do(func() {
		registerKruiseTypes()
		polymorphichelpers.UpdatePodSpecForObjectFn = updatePodSpecWith(polymorphichelpers.UpdatePodSpecForObjectFn)
	})
}
