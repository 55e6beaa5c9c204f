package statefulset

import (
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	intstrutil "k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podorder"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/specifieddelete"
)

// resolveParams reads the rollout parameters from the spec.
func resolveParams(set *v1beta1.StatefulSet) (Params, error) {
	reserved, err := ParseReserved(set.Spec.ReserveOrdinals)
	if err != nil {
		return Params{}, err
	}
	p := Params{
		Replicas:      1,
		Reserved:      reserved,
		Parallel:      set.Spec.PodManagementPolicy == appsv1.ParallelPodManagement,
		RollingUpdate: set.Spec.UpdateStrategy.Type != appsv1.OnDeleteStatefulSetStrategyType,
	}
	if set.Spec.Replicas != nil {
		p.Replicas = int(*set.Spec.Replicas)
	}
	if set.Spec.Ordinals != nil {
		p.Start = int(set.Spec.Ordinals.Start)
	}
	var maxUnavailable, scaleMaxUnavailable *intstrutil.IntOrString
	if ru := set.Spec.UpdateStrategy.RollingUpdate; ru != nil && p.RollingUpdate {
		if ru.Partition != nil {
			p.Partition = int(*ru.Partition)
		}
		p.Paused = ru.Paused
		p.Unordered = ru.UnorderedUpdate != nil
		maxUnavailable = ru.MaxUnavailable
	}
	if s := set.Spec.ScaleStrategy; s != nil {
		scaleMaxUnavailable = s.MaxUnavailable
	}
	return ResolveParams(p, maxUnavailable, scaleMaxUnavailable)
}

// podStates describes the set's pods for Compute.
func podStates(st *syncState, p Params) []PodState {
	var strategy *pub.UpdatePriorityStrategy
	if ru := st.set.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.UnorderedUpdate != nil {
		strategy = ru.UnorderedUpdate.PriorityStrategy
	}
	priority := podorder.PriorityFor(strategy)
	minReady := minReadySeconds(st.set)
	out := make([]PodState, 0, len(st.pods))
	for ord, pod := range st.byOrdinal {
		available, wait := podAvailable(pod, minReady, st.now)
		st.requeue.After(wait)
		s := PodState{
			Ordinal:     ord,
			Updated:     st.revs.IsUpdated(pod),
			Available:   available,
			Terminating: pod.DeletionTimestamp != nil,
			Failed:      pod.Status.Phase == corev1.PodFailed || pod.Status.Phase == corev1.PodSucceeded,

			SpecifiedDelete: specifieddelete.Is(pod),
			PreparingDelete: lifecycle.State(pod) == pub.LifecycleStatePreparingDelete,
			PreparingUpdate: lifecycle.State(pod) == pub.LifecycleStatePreparingUpdate,
			ClaimsStale:     st.claimStates[ord].stale,
			ClaimsResizing:  st.claimStates[ord].resizing,
		}
		if p.Unordered {
			s.Priority = priority(pod.Labels)
		}
		out = append(out, s)
	}
	return out
}

// minReadySeconds is rollingUpdate.minReadySeconds: the Advanced StatefulSet keeps it
// there rather than in spec, as OpenKruise does.
func minReadySeconds(set *v1beta1.StatefulSet) int32 {
	if ru := set.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.MinReadySeconds != nil {
		return *ru.MinReadySeconds
	}
	return 0
}

func isRunningAndReady(pod *corev1.Pod) bool {
	c := podcondition.Find(pod.Status.Conditions, corev1.PodReady)
	return pod.Status.Phase == corev1.PodRunning && c != nil && c.Status == corev1.ConditionTrue
}

// podAvailable reports whether the pod is available to the rollout at now: running,
// ready for at least minReadySeconds, not terminating and not updating in place; and,
// if it is ready but not yet available, how long until it will be.
func podAvailable(pod *corev1.Pod, minReadySeconds int32, now time.Time) (bool, time.Duration) {
	if pod.DeletionTimestamp != nil || inplaceupdate.IsInPlaceUpdating(pod) {
		return false, 0
	}
	return readyFor(pod, minReadySeconds, now)
}

// readyFor reports whether the pod is running and has been ready for minReadySeconds
// (status.availableReplicas counts these, as kube does), else how long until then.
func readyFor(pod *corev1.Pod, minReadySeconds int32, now time.Time) (bool, time.Duration) {
	if !isRunningAndReady(pod) {
		return false, 0
	}
	if minReadySeconds == 0 {
		return true, 0
	}
	ready := podcondition.Find(pod.Status.Conditions, corev1.PodReady)
	at := ready.LastTransitionTime.Add(time.Duration(minReadySeconds) * time.Second)
	if !now.Before(at) {
		return true, 0
	}
	return false, at.Sub(now)
}
