package podbudget

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
)

// Decision is what the webhook does with one disruption of one pod.
type Decision int

const (
	// Allow: let it through without touching the budget.
	Allow Decision = iota
	// Spend: let it through and write the budget's status Spend changed.
	Spend
	// Refuse: 429, the budget is spent.
	Refuse
)

// Decide spends one slot of the budget on the disruption op of a pod that is
// available now (the caller lets unavailable pods through: disrupting them changes no
// count). It changes status only when it returns Spend; the message says why when it
// returns Refuse.
func Decide(pub *policyv1beta1.PodUnavailableBudget, pod string, op Operation, now metav1.Time) (Decision, string) {
	st := &pub.Status
	// A pod already recorded is already not counted as available: a further update
	// of it (the next batch of an in-place update) or its deletion costs nothing more.
	if _, ok := st.DisruptedPods[pod]; ok {
		return Allow, ""
	}
	if _, ok := st.UnavailablePods[pod]; ok {
		return Allow, ""
	}
	if st.ObservedGeneration >= pub.Generation && st.TotalReplicas == 0 {
		// Nothing to keep: the target is gone (its pods are being garbage collected)
		// or scaled to zero.
		return Allow, ""
	}
	if st.ObservedGeneration < pub.Generation {
		return Refuse, fmt.Sprintf("pub %s/%s has not been observed by its controller yet (generation %d, observed %d)",
			pub.Namespace, pub.Name, pub.Generation, st.ObservedGeneration)
	}
	if st.UnavailableAllowed <= 0 {
		return Refuse, fmt.Sprintf("pub %s/%s: no more pods may be unavailable (unavailableAllowed 0, currentAvailable %d, desiredAvailable %d)",
			pub.Namespace, pub.Name, st.CurrentAvailable, st.DesiredAvailable)
	}
	st.UnavailableAllowed--
	if op == Update {
		if st.UnavailablePods == nil {
			st.UnavailablePods = map[string]metav1.Time{}
		}
		st.UnavailablePods[pod] = now
	} else {
		if st.DisruptedPods == nil {
			st.DisruptedPods = map[string]metav1.Time{}
		}
		st.DisruptedPods[pod] = now
	}
	return Spend, ""
}
