package podbudget

import (
	"fmt"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	policyv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
)

const (
	// Settle is how long a record is kept even when the pod looks done: the
	// controller's pod cache may still show the pod from before the admitted change.
	Settle = 5 * time.Second
	// DeletionTimeout forgets a disruptedPods record whose pod was not deleted (the
	// delete or eviction failed after the webhook admitted it), as kube's disruption
	// controller does for PodDisruptionBudgets.
	DeletionTimeout = 2 * time.Minute
)

// DesiredAvailable is how many pods the budget keeps available out of total.
func DesiredAvailable(spec *policyv1beta1.PodUnavailableBudgetSpec, total int32) (int32, error) {
	switch {
	case spec.MaxUnavailable != nil:
		n, err := scaled(spec.MaxUnavailable, total)
		if err != nil {
			return 0, fmt.Errorf("spec.maxUnavailable: %w", err)
		}
		return max(0, total-n), nil
	case spec.MinAvailable != nil:
		n, err := scaled(spec.MinAvailable, total)
		if err != nil {
			return 0, fmt.Errorf("spec.minAvailable: %w", err)
		}
		return n, nil
	}
	return 0, fmt.Errorf("neither spec.maxUnavailable nor spec.minAvailable is set")
}

// scaled is v as a number of pods out of total, a percent rounded up.
func scaled(v *intstr.IntOrString, total int32) (int32, error) {
	n, err := intstr.GetScaledValueFromIntOrPercent(v, int(total), true)
	if err != nil {
		return 0, err
	}
	return int32(n), nil
}

// UnavailableAllowed is how many more pods may be disrupted now.
func UnavailableAllowed(currentAvailable, desiredAvailable int32) int32 {
	return max(0, currentAvailable-desiredAvailable)
}

// TotalOverride is spec.protectTotalReplicas, or the pub.kruise.io/protect-total-replicas
// annotation OpenKruise still reads, if set and valid.
func TotalOverride(pub *policyv1beta1.PodUnavailableBudget) (int32, bool) {
	if n := pub.Spec.ProtectTotalReplicas; n != nil {
		return *n, true
	}
	v, ok := pub.Annotations[policyv1beta1.PubProtectTotalReplicasAnnotation]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil || n < 0 {
		return 0, false
	}
	return int32(n), true
}

// Pod is what the controller knows of one selected pod.
type Pod struct {
	Name string
	// Terminating: the pod has a deletionTimestamp (or is finished): the disruption
	// recorded for it has happened.
	Terminating bool
	// Available: running, ready, and not in the middle of an in-place update.
	Available bool
}

// Count is what the controller computes from the pods and the records.
type Count struct {
	Total, Desired, Current, Allowed int32
	// Disrupted and Unavailable are the records still in force.
	Disrupted, Unavailable map[string]metav1.Time
	// RecheckAfter, when not zero, is when a kept record may be forgotten.
	RecheckAfter time.Duration
}

// Compute counts the budget: total is the replicas it protects (Total, when < 0,
// is the number of pods not terminating), pods the selected pods, disrupted and
// unavailable the records in status.
func Compute(spec *policyv1beta1.PodUnavailableBudgetSpec, total int32, pods []Pod,
	disrupted, unavailable map[string]metav1.Time, now time.Time) (Count, error) {
	byName := make(map[string]Pod, len(pods))
	live := int32(0)
	for _, p := range pods {
		byName[p.Name] = p
		if !p.Terminating {
			live++
		}
	}
	if total < 0 {
		total = live
	}
	c := Count{Total: total}
	var err error
	if c.Desired, err = DesiredAvailable(spec, total); err != nil {
		return c, err
	}
	c.Disrupted, c.Unavailable = map[string]metav1.Time{}, map[string]metav1.Time{}
	recheck := func(at time.Time) {
		if d := at.Sub(now); d > 0 && (c.RecheckAfter == 0 || d < c.RecheckAfter) {
			c.RecheckAfter = d
		}
	}
	for name, t := range disrupted {
		p, ok := byName[name]
		settled := now.Sub(t.Time) >= Settle
		switch {
		case (!ok || p.Terminating) && settled:
			// seen gone: the disruption happened
		case now.Sub(t.Time) >= DeletionTimeout:
			// admitted but never happened
		default:
			c.Disrupted[name] = t
			if ok && !p.Terminating {
				recheck(t.Add(DeletionTimeout))
			} else {
				recheck(t.Add(Settle))
			}
		}
	}
	for name, t := range unavailable {
		p, ok := byName[name]
		if settled := now.Sub(t.Time) >= Settle; settled && (!ok || p.Terminating || p.Available) {
			continue // updated and available again, or gone
		}
		c.Unavailable[name] = t
		recheck(t.Add(Settle))
	}
	for _, p := range pods {
		if p.Terminating || !p.Available {
			continue
		}
		if _, ok := c.Disrupted[p.Name]; ok {
			continue
		}
		if _, ok := c.Unavailable[p.Name]; ok {
			continue
		}
		c.Current++
	}
	c.Allowed = UnavailableAllowed(c.Current, c.Desired)
	return c, nil
}
