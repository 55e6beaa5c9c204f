package workloadspread

import (
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

const (
	// CreatingTimeout: a reservation whose pod the controller has not seen after this
	// long is dropped (the create failed after admission), freeing its slot.
	CreatingTimeout = 30 * time.Second
	// DeletingTimeout: a pod recorded as deleting that still exists, not terminating,
	// after this long was not deleted (a later webhook refused it); it counts again.
	DeletingTimeout = 15 * time.Second
)

// Pod is what the controller knows of one pod of the target workload.
type Pod struct {
	Name    string
	Created time.Time
	// Subset is the subset the pod is counted in: its annotation's, or for a pod
	// without one (created before the spread) the first whose required term its node
	// matches; "" for none.
	Subset string
	// Terminating: deleted (deletionTimestamp set) or finished; it holds no slot.
	Terminating bool
	// DeletionCost is the pod's current pod-deletion-cost annotation, nil if absent.
	DeletionCost *int32
	// UnschedulableSince is when the scheduler marked the pod Unschedulable (zero if not).
	UnschedulableSince time.Time
	// Version is the pod's version for a versioned spread (PodVersion), else "".
	Version string
}

// Result is the computed status and the pod-deletion-cost each pod should carry
// (only pods whose cost differs from the wanted one are listed).
type Result struct {
	Status appsv1beta1.WorkloadSpreadStatus
	Costs  map[string]int32
	// RequeueAfter is when a reservation, a deletion record or an unschedulable mark
	// expires and the status must be computed again (0: never).
	RequeueAfter time.Duration
}

// Compute derives ws's status from the target's replicas and pods at now. Each subset
// keeps the creatingPods not yet seen and younger than CreatingTimeout, and the
// deletingPods that still exist, not terminating, and are younger than
// DeletingTimeout. missingReplicas = max - (active pods not deleting) - creating.
// Adaptive: a subset with a pod unschedulable for rescheduleCriticalSeconds gets
// Schedulable=False, cleared after the same time again without such a pod.
func Compute(ws *appsv1beta1.WorkloadSpread, replicas int32, pods []Pod, now time.Time) (Result, error) {
	res := Result{Costs: map[string]int32{}}
	seen := make(map[string]*Pod, len(pods))
	bySubset := map[string][]*Pod{}
	for i := range pods {
		p := &pods[i]
		seen[p.Name] = p
		if p.Subset != "" && !p.Terminating {
			bySubset[p.Subset] = append(bySubset[p.Subset], p)
		}
	}
	old := map[string]*appsv1beta1.WorkloadSpreadSubsetStatus{}
	for i := range ws.Status.SubsetStatuses {
		old[ws.Status.SubsetStatuses[i].Name] = &ws.Status.SubsetStatuses[i]
	}
	critical := rescheduleCritical(ws)
	requeue := func(at time.Time) {
		if d := at.Sub(now); d > 0 && (res.RequeueAfter == 0 || d < res.RequeueAfter) {
			res.RequeueAfter = d
		}
	}
	n := len(ws.Spec.Subsets)
	res.Status.ObservedGeneration = ws.Generation
	for i := range ws.Spec.Subsets {
		sub := &ws.Spec.Subsets[i]
		max, err := MaxReplicas(sub, replicas)
		if err != nil {
			return Result{}, err
		}
		st := appsv1beta1.WorkloadSpreadSubsetStatus{Name: sub.Name}
		prev := old[sub.Name]
		if prev == nil {
			prev = &appsv1beta1.WorkloadSpreadSubsetStatus{}
		}
		for name, at := range prev.CreatingPods {
			if _, ok := seen[name]; ok || now.Sub(at.Time) >= CreatingTimeout {
				continue
			}
			if st.CreatingPods == nil {
				st.CreatingPods = map[string]metav1.Time{}
			}
			st.CreatingPods[name] = at
			requeue(at.Add(CreatingTimeout))
		}
		for name, at := range prev.DeletingPods {
			p, ok := seen[name]
			if !ok || p.Terminating || now.Sub(at.Time) >= DeletingTimeout {
				continue
			}
			if st.DeletingPods == nil {
				st.DeletingPods = map[string]metav1.Time{}
			}
			st.DeletingPods[name] = at
			requeue(at.Add(DeletingTimeout))
		}
		members := bySubset[sub.Name]
		sort.SliceStable(members, func(a, b int) bool {
			if !members[a].Created.Equal(members[b].Created) {
				return members[a].Created.Before(members[b].Created)
			}
			return members[a].Name < members[b].Name
		})
		counted := 0
		for _, p := range members {
			if _, deleting := st.DeletingPods[p.Name]; deleting {
				continue
			}
			// The oldest pods hold the subset's slots; pods beyond maxReplicas (the
			// spread shrank) go before any other on scale-down.
			want := int32(100 * (n - i))
			if max != Unlimited && counted >= int(max) {
				want = int32(-100 * (i + 1))
			}
			counted++
			if p.DeletionCost == nil || *p.DeletionCost != want {
				res.Costs[p.Name] = want
			}
		}
		st.Replicas = int32(counted)
		if max == Unlimited {
			st.MissingReplicas = Unlimited
		} else {
			st.MissingReplicas = max - int32(counted) - int32(len(st.CreatingPods))
			if st.MissingReplicas < 0 {
				st.MissingReplicas = 0
			}
		}
		if critical > 0 {
			st.Conditions = schedulable(prev.Conditions, members, critical, now, requeue)
		}
		res.Status.SubsetStatuses = append(res.Status.SubsetStatuses, st)
	}
	return res, nil
}

// rescheduleCritical is the Adaptive threshold, 0 under Fixed.
func rescheduleCritical(ws *appsv1beta1.WorkloadSpread) time.Duration {
	s := ws.Spec.ScheduleStrategy
	if s.Type != appsv1beta1.AdaptiveWorkloadSpreadScheduleStrategyType {
		return 0
	}
	secs := int32(appsv1beta1.DefaultRescheduleCriticalSeconds)
	if s.Adaptive != nil && s.Adaptive.RescheduleCriticalSeconds != nil {
		secs = *s.Adaptive.RescheduleCriticalSeconds
	}
	return time.Duration(secs) * time.Second
}

// schedulable is the subset's Schedulable condition: False from the moment one of its
// pods has been unschedulable for critical, True again critical after the last such
// mark (the subset gets another chance).
func schedulable(prev []appsv1beta1.WorkloadSpreadSubsetCondition, members []*Pod, critical time.Duration,
	now time.Time, requeue func(time.Time)) []appsv1beta1.WorkloadSpreadSubsetCondition {
	stuck := false
	for _, p := range members {
		if p.UnschedulableSince.IsZero() {
			continue
		}
		if now.Sub(p.UnschedulableSince) >= critical {
			stuck = true
		} else {
			requeue(p.UnschedulableSince.Add(critical))
		}
	}
	var cond *appsv1beta1.WorkloadSpreadSubsetCondition
	for i := range prev {
		if prev[i].Type == appsv1beta1.SubsetSchedulable {
			c := prev[i]
			cond = &c
		}
	}
	switch {
	case stuck && (cond == nil || cond.Status != corev1.ConditionFalse):
		cond = &appsv1beta1.WorkloadSpreadSubsetCondition{Type: appsv1beta1.SubsetSchedulable, Status: corev1.ConditionFalse,
			LastTransitionTime: metav1.NewTime(now), Reason: "PodUnschedulable",
			Message: "a pod of the subset stayed unschedulable longer than rescheduleCriticalSeconds"}
	case stuck:
		// Still stuck: keep the mark's time, so it expires critical after the pods leave.
	case cond != nil && cond.Status == corev1.ConditionFalse && now.Sub(cond.LastTransitionTime.Time) < critical:
		requeue(cond.LastTransitionTime.Add(critical))
	case cond != nil && cond.Status == corev1.ConditionFalse:
		cond = &appsv1beta1.WorkloadSpreadSubsetCondition{Type: appsv1beta1.SubsetSchedulable, Status: corev1.ConditionTrue,
			LastTransitionTime: metav1.NewTime(now), Reason: "RescheduleExpired"}
	}
	if cond == nil {
		return nil
	}
	return []appsv1beta1.WorkloadSpreadSubsetCondition{*cond}
}
