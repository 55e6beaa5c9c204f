package daemonset

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	intstrutil "k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
)

// rollingUpdate is spec.updateStrategy.rollingUpdate, empty when unset.
func rollingUpdate(ds *v1beta1.DaemonSet) v1beta1.RollingUpdateDaemonSet {
	if ru := ds.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		return *ru
	}
	return v1beta1.RollingUpdateDaemonSet{}
}

// inPlace: old pods are updated in place when only in-place-able fields changed.
func inPlace(ds *v1beta1.DaemonSet) bool {
	return rollingUpdate(ds).Type == v1beta1.InplaceRollingUpdateType
}

// resolveLimits turns the spec's numbers and percents into counts of desired nodes,
// as kube and OpenKruise do: percents round up, and maxUnavailable is 1 when both it
// and maxSurge come to 0 (a percent of few nodes), so the rollout always moves.
func resolveLimits(ds *v1beta1.DaemonSet, desired int) (Limits, error) {
	ru := rollingUpdate(ds)
	l := Limits{Paused: ds.Spec.UpdateStrategy.Type == v1beta1.OnDeleteDaemonSetStrategyType || (ru.Paused != nil && *ru.Paused)}
	var err error
	if l.MaxUnavailable, err = scaled(ru.MaxUnavailable, desired); err != nil {
		return l, fmt.Errorf("maxUnavailable: %w", err)
	}
	if l.MaxSurge, err = scaled(ru.MaxSurge, desired); err != nil {
		return l, fmt.Errorf("maxSurge: %w", err)
	}
	if l.MaxUnavailable == 0 && l.MaxSurge == 0 {
		l.MaxUnavailable = 1
	}
	if ru.Partition != nil {
		l.Partition = int(max(*ru.Partition, 0))
	}
	l.PartitionedScaling = ds.Spec.ScaleStrategy != nil && ds.Spec.ScaleStrategy.PartitionedScaling
	burst, err := scaled(ds.Spec.BurstReplicas, desired)
	if err != nil {
		return l, fmt.Errorf("burstReplicas: %w", err)
	}
	// OpenKruise's default is 250; whatever the spec says, a sync never writes more
	// than the controllers' shared bound.
	l.Burst = batch.Clamp(max(burst, 1))
	if ds.Spec.BurstReplicas == nil {
		l.Burst = 250
	}
	return l, nil
}

func scaled(v *intstrutil.IntOrString, total int) (int, error) {
	if v == nil {
		return 0, nil
	}
	n, err := intstrutil.GetScaledValueFromIntOrPercent(v, total, true)
	if err != nil {
		return 0, err
	}
	return max(n, 0), nil
}

// updateSelector is rollingUpdate.selector: the nodes a rollout may update
// (labels.Everything when unset).
func updateSelector(ds *v1beta1.DaemonSet) (labels.Selector, error) {
	sel := rollingUpdate(ds).Selector
	if sel == nil {
		return labels.Everything(), nil
	}
	out, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return nil, fmt.Errorf("rollingUpdate.selector: %w", err)
	}
	return out, nil
}
