package podbudget

import (
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/sets"

	policyv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
)

// Operation is a disruption a budget may guard.
type Operation string

// The disruptions a budget guards.
const (
	Delete Operation = "DELETE"
	Evict  Operation = "EVICT"
	Update Operation = "UPDATE"
)

// Protects reports whether the budget guards op: every operation unless
// spec.protectOperations (or, as OpenKruise still reads it, the annotation
// kruise.io/pub-protect-operations) names some.
func Protects(pub *policyv1beta1.PodUnavailableBudget, op Operation) bool {
	if ops := pub.Spec.ProtectOperations; len(ops) > 0 {
		for _, o := range ops {
			if string(o) == string(op) {
				return true
			}
		}
		return false
	}
	v, ok := pub.Annotations[policyv1beta1.PubProtectOperationAnnotation]
	if !ok || strings.TrimSpace(v) == "" {
		return true
	}
	ops := sets.New[string]()
	for _, s := range strings.Split(v, ",") {
		ops.Insert(strings.ToUpper(strings.TrimSpace(s)))
	}
	return ops.Has(string(op))
}

// NoProtect reports whether the pod opted out of every budget.
func NoProtect(podAnnotations map[string]string) bool {
	return podAnnotations[policyv1beta1.PodPubNoProtectionAnnotation] == "true"
}

// Ignored reports whether spec.ignoredPodSelector selects a pod with these labels: the
// budget neither guards nor counts it.
func Ignored(pub *policyv1beta1.PodUnavailableBudget, podLabels map[string]string) bool {
	if pub.Spec.IgnoredPodSelector == nil {
		return false
	}
	sel, err := metav1.LabelSelectorAsSelector(pub.Spec.IgnoredPodSelector)
	return err == nil && !sel.Empty() && sel.Matches(labels.Set(podLabels))
}
