package cloneset

import (
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// rollingUpdate is spec.updateStrategy.rollingUpdate, empty when unset.
func rollingUpdate(cs *v1beta1.CloneSet) v1beta1.RollingUpdateCloneSetStrategy {
	if ru := cs.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		return *ru
	}
	return v1beta1.RollingUpdateCloneSetStrategy{}
}

// podUpdatePolicy is how old pods are brought to the update revision: ReCreate unless
// rollingUpdate.podUpdatePolicy says in place. (The server stores v1beta1 in this
// shape whichever version the user wrote.)
func podUpdatePolicy(cs *v1beta1.CloneSet) v1beta1.CloneSetPodUpdateStrategyType {
	if p := rollingUpdate(cs).PodUpdatePolicy; p != "" {
		return p
	}
	return v1beta1.RecreateCloneSetPodUpdateStrategyType
}

// inPlace reports whether old pods are updated in place when possible.
func inPlace(cs *v1beta1.CloneSet) bool {
	p := podUpdatePolicy(cs)
	return p == v1beta1.InPlaceIfPossibleCloneSetPodUpdateStrategyType || p == v1beta1.InPlaceOnlyCloneSetPodUpdateStrategyType
}

// holdsUpdates: pods are not updated by the controller (paused, or OnDelete).
func holdsUpdates(cs *v1beta1.CloneSet) bool {
	return rollingUpdate(cs).Paused || cs.Spec.UpdateStrategy.Type == v1beta1.OnDeleteCloneSetUpdateStrategyType
}

// inPlaceStrategy is rollingUpdate.inPlaceUpdateStrategy (grace period), if any.
func inPlaceStrategy(cs *v1beta1.CloneSet) *pub.InPlaceUpdateStrategy {
	return rollingUpdate(cs).InPlaceUpdateStrategy
}

// excludePreparingDelete is scaleStrategy.excludePreparingDelete, or v1alpha1's form of
// it, the apps.kruise.io/cloneset-scaling-exclude-preparing-delete label.
func excludePreparingDelete(cs *v1beta1.CloneSet) bool {
	return cs.Spec.ScaleStrategy.ExcludePreparingDelete || cs.Labels[v1alpha1.ScalingExcludePreparingDeleteKey] == "true"
}

// preDeleteHook is lifecycle.preDelete, if any.
func preDeleteHook(cs *v1beta1.CloneSet) *pub.LifecycleHook {
	if cs.Spec.Lifecycle == nil {
		return nil
	}
	return cs.Spec.Lifecycle.PreDelete
}
