package validation

import "k8s.io/apimachinery/pkg/util/validation/field"

// ratchet applies a rule added after objects were stored to an update: the errors it
// finds in the new object count when the fields it reads changed, or when the old
// object satisfied it (oldErrs empty). A stored object that breaks it stays updatable
// as long as those fields stay as they are, as kube does with rules it tightens.
func ratchet(newErrs, oldErrs field.ErrorList, changed bool) field.ErrorList {
	if changed || len(oldErrs) == 0 {
		return newErrs
	}
	return nil
}
