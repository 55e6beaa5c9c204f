package v1beta1

import (
	"k8s.io/apimachinery/pkg/conversion"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// The hub keeps CloneSet's update strategy in v1alpha1's flat form (one type that
// names both the rollout and the per-pod policy). v1beta1 splits it into
// type RollingUpdate|OnDelete plus rollingUpdate.podUpdatePolicy.

// Convert_v1beta1_CloneSetUpdateStrategy_To_apps_CloneSetUpdateStrategy folds the
// v1beta1 shape into the flat hub form.
func Convert_v1beta1_CloneSetUpdateStrategy_To_apps_CloneSetUpdateStrategy(in *CloneSetUpdateStrategy, out *apps.CloneSetUpdateStrategy, _ conversion.Scope) error {
	*out = apps.CloneSetUpdateStrategy{}
	if ru := in.RollingUpdate; ru != nil {
		out.Partition = ru.Partition
		out.MaxUnavailable = ru.MaxUnavailable
		out.MaxSurge = ru.MaxSurge
		out.Paused = ru.Paused
		out.PriorityStrategy = ru.PriorityStrategy
		out.ScatterStrategy = ru.ScatterStrategy
		out.InPlaceUpdateStrategy = ru.InPlaceUpdateStrategy
	}
	switch t := apps.CloneSetUpdateStrategyType(in.Type); {
	case in.Type == OnDeleteCloneSetUpdateStrategyType:
		out.Type = apps.OnDeleteCloneSetUpdateStrategyType
	case isPodUpdatePolicy(t):
		// A v1alpha1 type written against v1beta1, as `kubectl patch` does when a user
		// thinks in v1alpha1 terms but kubectl speaks the preferred version: the
		// explicit type says how pods are updated, over a stale podUpdatePolicy.
		out.Type = t
	case in.Type != "" && in.Type != RollingUpdateCloneSetUpdateStrategyType:
		out.Type = t // unknown: validation rejects it, naming the value
	case in.RollingUpdate != nil && in.RollingUpdate.PodUpdatePolicy != "":
		out.Type = apps.CloneSetUpdateStrategyType(in.RollingUpdate.PodUpdatePolicy)
	case in.Type == RollingUpdateCloneSetUpdateStrategyType:
		out.Type = apps.RecreateCloneSetUpdateStrategyType
	}
	return nil
}

func isPodUpdatePolicy(t apps.CloneSetUpdateStrategyType) bool {
	switch t {
	case apps.RecreateCloneSetUpdateStrategyType, apps.InPlaceIfPossibleCloneSetUpdateStrategyType, apps.InPlaceOnlyCloneSetUpdateStrategyType:
		return true
	}
	return false
}

// Convert_apps_CloneSetUpdateStrategy_To_v1beta1_CloneSetUpdateStrategy splits the
// flat hub form into type + rollingUpdate.podUpdatePolicy.
func Convert_apps_CloneSetUpdateStrategy_To_v1beta1_CloneSetUpdateStrategy(in *apps.CloneSetUpdateStrategy, out *CloneSetUpdateStrategy, _ conversion.Scope) error {
	*out = CloneSetUpdateStrategy{}
	ru := &RollingUpdateCloneSetStrategy{
		Partition:             in.Partition,
		MaxUnavailable:        in.MaxUnavailable,
		MaxSurge:              in.MaxSurge,
		Paused:                in.Paused,
		PriorityStrategy:      in.PriorityStrategy,
		ScatterStrategy:       in.ScatterStrategy,
		InPlaceUpdateStrategy: in.InPlaceUpdateStrategy,
	}
	switch in.Type {
	case apps.OnDeleteCloneSetUpdateStrategyType:
		out.Type = OnDeleteCloneSetUpdateStrategyType
		// Keep parameters an OnDelete strategy still carries, so switching back loses nothing.
		if !isZeroRollingUpdate(ru) {
			out.RollingUpdate = ru
		}
	case "":
		if !isZeroRollingUpdate(ru) {
			out.RollingUpdate = ru
		}
	default:
		out.Type = RollingUpdateCloneSetUpdateStrategyType
		ru.PodUpdatePolicy = CloneSetPodUpdateStrategyType(in.Type)
		out.RollingUpdate = ru
	}
	return nil
}

func isZeroRollingUpdate(ru *RollingUpdateCloneSetStrategy) bool {
	return ru.Partition == nil && ru.MaxUnavailable == nil && ru.MaxSurge == nil && !ru.Paused &&
		ru.PriorityStrategy == nil && ru.ScatterStrategy == nil && ru.InPlaceUpdateStrategy == nil &&
		ru.PodUpdatePolicy == ""
}

// Convert_v1beta1_CloneSetScaleStrategy_To_apps_CloneSetScaleStrategy inverts
// enablePVCReuse into the hub's disable flag.
func Convert_v1beta1_CloneSetScaleStrategy_To_apps_CloneSetScaleStrategy(in *CloneSetScaleStrategy, out *apps.CloneSetScaleStrategy, s conversion.Scope) error {
	if err := autoConvert_v1beta1_CloneSetScaleStrategy_To_apps_CloneSetScaleStrategy(in, out, s); err != nil {
		return err
	}
	out.DisablePVCReuse = !in.EnablePVCReuse
	return nil
}

// Convert_apps_CloneSetScaleStrategy_To_v1beta1_CloneSetScaleStrategy inverts the hub's
// disable flag into enablePVCReuse.
func Convert_apps_CloneSetScaleStrategy_To_v1beta1_CloneSetScaleStrategy(in *apps.CloneSetScaleStrategy, out *CloneSetScaleStrategy, s conversion.Scope) error {
	if err := autoConvert_apps_CloneSetScaleStrategy_To_v1beta1_CloneSetScaleStrategy(in, out, s); err != nil {
		return err
	}
	out.EnablePVCReuse = !in.DisablePVCReuse
	return nil
}
