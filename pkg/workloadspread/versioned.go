package workloadspread

import (
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// Versioned reports whether ws counts its subsets per pod version
// (status.versionedSubsetStatuses): for Deployment and ReplicaSet targets, as
// OpenKruise does by default. Their rollouts surge: a new version's pod is created
// while the old ones still fill the subsets, so counted together the new pods would
// find every capped subset full and all land in the last one.
func Versioned(ws *appsv1beta1.WorkloadSpread) bool {
	ref := ws.Spec.TargetReference
	if ref == nil {
		return false
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	return err == nil && gv.Group == "apps" && (ref.Kind == "Deployment" || ref.Kind == "ReplicaSet")
}

// PodVersion is the version pod is counted under: its pod-template-hash for a
// versioned spread, "" (not versioned) otherwise.
func PodVersion(ws *appsv1beta1.WorkloadSpread, pod *corev1.Pod) string {
	if !Versioned(ws) {
		return ""
	}
	return pod.Labels[appsv1.DefaultDeploymentUniqueLabelKey]
}

// NeedsReplicas reports whether resolving ws's maxReplicas needs the workload's
// replicas (a subset has a percent).
func NeedsReplicas(ws *appsv1beta1.WorkloadSpread) bool {
	for _, s := range ws.Spec.Subsets {
		if s.MaxReplicas != nil && s.MaxReplicas.Type != 0 {
			return true
		}
	}
	return false
}

// NewVersion is the subset statuses of a version without pods yet: each subset's
// whole maxReplicas missing (replicas resolves percents).
func NewVersion(ws *appsv1beta1.WorkloadSpread, replicas int32) (appsv1beta1.WorkloadSpreadSubsetStatusList, error) {
	out := make(appsv1beta1.WorkloadSpreadSubsetStatusList, 0, len(ws.Spec.Subsets))
	for i := range ws.Spec.Subsets {
		max, err := MaxReplicas(&ws.Spec.Subsets[i], replicas)
		if err != nil {
			return nil, err
		}
		out = append(out, appsv1beta1.WorkloadSpreadSubsetStatus{Name: ws.Spec.Subsets[i].Name, MissingReplicas: max})
	}
	return out, nil
}

// ReserveVersion is Reserve for a pod of version: the slot is taken in that version's
// subset statuses (created from init when the status has none yet), so only pods of
// the same version fill a subset; the aggregate subsetStatuses record the pod too.
// version "" is Reserve.
func ReserveVersion(ws *appsv1beta1.WorkloadSpread, version string, init appsv1beta1.WorkloadSpreadSubsetStatusList,
	pod string, now metav1.Time) (Decision, string) {
	if version == "" {
		return Reserve(ws, pod, now)
	}
	if !Ready(ws) {
		return NotReady, ""
	}
	st, ok := ws.Status.VersionedSubsetStatuses[version]
	if !ok || len(st) != len(ws.Spec.Subsets) {
		if len(init) != len(ws.Spec.Subsets) {
			return NotReady, ""
		}
		st = init.DeepCopy()
		if ws.Status.VersionedSubsetStatuses == nil {
			ws.Status.VersionedSubsetStatuses = map[string]appsv1beta1.WorkloadSpreadSubsetStatusList{}
		}
		ws.Status.VersionedSubsetStatuses[version] = st
	}
	d, subset := reserveIn(st, pod, now)
	if d == Reserved {
		for i := range ws.Status.SubsetStatuses {
			if s := &ws.Status.SubsetStatuses[i]; s.Name == subset {
				if _, ok := s.CreatingPods[pod]; !ok {
					if s.MissingReplicas > 0 {
						s.MissingReplicas--
					}
					if s.CreatingPods == nil {
						s.CreatingPods = map[string]metav1.Time{}
					}
					s.CreatingPods[pod] = now
				}
			}
		}
	}
	return d, subset
}

// ReleaseVersion is Release for a pod of version: its slot is freed in the aggregate
// and in its version's statuses.
func ReleaseVersion(ws *appsv1beta1.WorkloadSpread, version, subset, pod string, now metav1.Time) bool {
	changed := Release(ws, subset, pod, now)
	if st, ok := ws.Status.VersionedSubsetStatuses[version]; ok && version != "" {
		changed = releaseIn(st, subset, pod, now) || changed
	}
	return changed
}

// ComputeVersions counts each version's subsets from its pods (their Version), as
// Compute does for all of them: a version is kept while it has pods or records in
// flight. It returns nil for a spread that is not versioned, and the earliest time a
// record expires (0: none).
func ComputeVersions(ws *appsv1beta1.WorkloadSpread, replicas int32, pods []Pod, now time.Time) (
	map[string]appsv1beta1.WorkloadSpreadSubsetStatusList, time.Duration, error) {
	if !Versioned(ws) {
		return nil, 0, nil
	}
	byVersion := map[string][]Pod{}
	for _, p := range pods {
		if p.Version != "" {
			byVersion[p.Version] = append(byVersion[p.Version], p)
		}
	}
	versions := map[string]bool{}
	for v := range byVersion {
		versions[v] = true
	}
	for v := range ws.Status.VersionedSubsetStatuses {
		versions[v] = true
	}
	var out map[string]appsv1beta1.WorkloadSpreadSubsetStatusList
	var requeue time.Duration
	for v := range versions {
		one := &appsv1beta1.WorkloadSpread{ObjectMeta: ws.ObjectMeta, Spec: ws.Spec}
		one.Status.SubsetStatuses = ws.Status.VersionedSubsetStatuses[v]
		res, err := Compute(one, replicas, byVersion[v], now)
		if err != nil {
			return nil, 0, err
		}
		inFlight := false
		for _, s := range res.Status.SubsetStatuses {
			inFlight = inFlight || len(s.CreatingPods) > 0 || len(s.DeletingPods) > 0
		}
		if len(byVersion[v]) == 0 && !inFlight {
			continue // the version is gone
		}
		if out == nil {
			out = map[string]appsv1beta1.WorkloadSpreadSubsetStatusList{}
		}
		out[v] = res.Status.SubsetStatuses
		if res.RequeueAfter > 0 && (requeue == 0 || res.RequeueAfter < requeue) {
			requeue = res.RequeueAfter
		}
	}
	return out, requeue, nil
}
