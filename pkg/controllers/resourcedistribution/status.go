package resourcedistribution

import (
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// conditionOrder is OpenKruise's: every status lists the six condition types in it.
var conditionOrder = []v1alpha1.ResourceDistributionConditionType{
	v1alpha1.ResourceDistributionGetResourceFailed,
	v1alpha1.ResourceDistributionCreateResourceFailed,
	v1alpha1.ResourceDistributionUpdateResourceFailed,
	v1alpha1.ResourceDistributionDeleteResourceFailed,
	v1alpha1.ResourceDistributionConflictOccurred,
	v1alpha1.ResourceDistributionNamespaceNotExists,
}

// conditionSucceeded is the reason of a condition that did not happen (OpenKruise's).
const conditionSucceeded = "Succeeded"

// Failures are what went wrong in one sync: by condition type, the namespaces and why.
type Failures map[v1alpha1.ResourceDistributionConditionType]map[string]string

// Add records a failure of type typ in namespace ns.
func (f Failures) Add(typ v1alpha1.ResourceDistributionConditionType, ns, reason string) {
	if f[typ] == nil {
		f[typ] = map[string]string{}
	}
	f[typ][ns] = reason
}

// Namespaces are the namespaces with a failure of type typ, sorted.
func (f Failures) Namespaces(typ v1alpha1.ResourceDistributionConditionType) []string {
	out := make([]string, 0, len(f[typ]))
	for ns := range f[typ] {
		out = append(out, ns)
	}
	sort.Strings(out)
	return out
}

// ComputeStatus is the status after a sync: desired target namespaces, succeeded ones
// (holding an up-to-date copy), failed = desired - succeeded, and the six conditions,
// True with the failed namespaces and the reason of the first of them, False with
// reason Succeeded otherwise. A condition's lastTransitionTime moves only when its
// status does, so an unchanged sync writes nothing.
func ComputeStatus(old *v1alpha1.ResourceDistributionStatus, generation int64, desired, succeeded int, failures Failures, now metav1.Time) v1alpha1.ResourceDistributionStatus {
	s := v1alpha1.ResourceDistributionStatus{
		Desired:            int32(desired),
		Succeeded:          int32(succeeded),
		Failed:             int32(desired - succeeded),
		ObservedGeneration: generation,
	}
	prev := map[v1alpha1.ResourceDistributionConditionType]v1alpha1.ResourceDistributionCondition{}
	for _, c := range old.Conditions {
		prev[c.Type] = c
	}
	for _, typ := range conditionOrder {
		c := v1alpha1.ResourceDistributionCondition{Type: typ, Status: v1alpha1.ResourceDistributionConditionFalse, Reason: conditionSucceeded}
		if nss := failures.Namespaces(typ); len(nss) > 0 {
			c.Status = v1alpha1.ResourceDistributionConditionTrue
			c.Reason = failures[typ][nss[0]]
			c.FailedNamespaces = nss
		}
		c.LastTransitionTime = now
		if p, ok := prev[typ]; ok && p.Status == c.Status {
			c.LastTransitionTime = p.LastTransitionTime
		}
		s.Conditions = append(s.Conditions, c)
	}
	return s
}

// NewlyFailed are the namespaces failing with typ now that did not before: each gets
// one event, not one per sync.
func NewlyFailed(old *v1alpha1.ResourceDistributionStatus, failures Failures, typ v1alpha1.ResourceDistributionConditionType) []string {
	before := map[string]bool{}
	for _, c := range old.Conditions {
		if c.Type == typ && c.Status == v1alpha1.ResourceDistributionConditionTrue {
			for _, ns := range c.FailedNamespaces {
				before[ns] = true
			}
		}
	}
	var out []string
	for _, ns := range failures.Namespaces(typ) {
		if !before[ns] {
			out = append(out, ns)
		}
	}
	return out
}
