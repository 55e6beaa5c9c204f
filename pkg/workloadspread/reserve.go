package workloadspread

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// Decision is what Reserve decided for one pod.
type Decision int

const (
	// NotReady: the status does not describe the spec's subsets yet (the controller has
	// not counted them); the pod is admitted unplaced, as OpenKruise does.
	NotReady Decision = iota
	// Full: no subset has room; the pod is admitted unplaced.
	Full
	// Reserved: the pod took a slot of Subset (already taken on a retry of the same pod).
	Reserved
)

// Ready reports whether ws's status has one entry per spec subset, in order, for its
// current generation: only then are its missingReplicas counts to decide on.
func Ready(ws *appsv1beta1.WorkloadSpread) bool {
	st := ws.Status.SubsetStatuses
	if ws.Status.ObservedGeneration != ws.Generation || len(st) != len(ws.Spec.Subsets) {
		return false
	}
	for i := range st {
		if st[i].Name != ws.Spec.Subsets[i].Name {
			return false
		}
	}
	return true
}

// Reserve picks the first subset with room for pod and records the reservation in
// ws.Status (modified in place): missingReplicas decremented unless unlimited, the pod
// in creatingPods at now. A pod already in some creatingPods keeps that subset and
// nothing changes (the webhook may be called again for the same pod).
func Reserve(ws *appsv1beta1.WorkloadSpread, pod string, now metav1.Time) (Decision, string) {
	if !Ready(ws) {
		return NotReady, ""
	}
	return reserveIn(ws.Status.SubsetStatuses, pod, now)
}

// reserveIn takes the first slot with room in st (modified in place).
func reserveIn(st []appsv1beta1.WorkloadSpreadSubsetStatus, pod string, now metav1.Time) (Decision, string) {
	for i := range st {
		if _, ok := st[i].CreatingPods[pod]; ok {
			return Reserved, st[i].Name
		}
	}
	for i := range st {
		s := &st[i]
		if !hasRoom(s) {
			continue
		}
		if s.MissingReplicas != Unlimited {
			s.MissingReplicas--
		}
		if s.CreatingPods == nil {
			s.CreatingPods = map[string]metav1.Time{}
		}
		s.CreatingPods[pod] = now
		return Reserved, s.Name
	}
	return Full, ""
}

// Release records that pod, placed in subset, is being deleted: its slot is free
// again at once (missingReplicas incremented unless unlimited) and the pod is in
// deletingPods until the controller sees it gone. False when nothing changed (an
// unknown subset, or already recorded).
func Release(ws *appsv1beta1.WorkloadSpread, subset, pod string, now metav1.Time) bool {
	return releaseIn(ws.Status.SubsetStatuses, subset, pod, now)
}

func releaseIn(st []appsv1beta1.WorkloadSpreadSubsetStatus, subset, pod string, now metav1.Time) bool {
	for i := range st {
		s := &st[i]
		if s.Name != subset {
			continue
		}
		if _, ok := s.DeletingPods[pod]; ok {
			return false
		}
		if s.MissingReplicas != Unlimited {
			s.MissingReplicas++
		}
		if s.DeletingPods == nil {
			s.DeletingPods = map[string]metav1.Time{}
		}
		s.DeletingPods[pod] = now
		return true
	}
	return false
}

// hasRoom: unlimited or missing replicas, and not marked unschedulable (Adaptive).
func hasRoom(s *appsv1beta1.WorkloadSpreadSubsetStatus) bool {
	if s.MissingReplicas == 0 || s.MissingReplicas < Unlimited {
		return false
	}
	for _, c := range s.Conditions {
		if c.Type == appsv1beta1.SubsetSchedulable && c.Status == corev1.ConditionFalse {
			return false
		}
	}
	return true
}
