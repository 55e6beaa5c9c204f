package podbudget

import (
	"strings"

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

// Protects reports whether a budget with these annotations guards op: every
// operation unless kruise.io/pub-protect-operations names some.
func Protects(annotations map[string]string, op Operation) bool {
	v, ok := annotations[policyv1beta1.PubProtectOperationAnnotation]
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
