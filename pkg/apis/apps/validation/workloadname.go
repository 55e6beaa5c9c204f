package validation

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// maxRevisionHashLength is the longest hash in a ControllerRevision name: a 32-bit
// hash, safe-encoded, is at most 10 characters.
const maxRevisionHashLength = 10

// MaxWorkloadNameLength is the longest name a pod-owning workload may have. Its pods
// carry the label controller-revision-hash=<name>-<hash>, and a label value holds at
// most 63 characters; a longer name would be stored and then fail every pod create
// with 422 for ever. (Pod names, <name>-<5 characters> or <name>-<ordinal>, fit too.)
const MaxWorkloadNameLength = validation.LabelValueMaxLength - 1 - maxRevisionHashLength

// validateWorkloadName refuses names whose pods' revision label could not be written.
func validateWorkloadName(name string, fldPath *field.Path) field.ErrorList {
	if len(name) <= MaxWorkloadNameLength {
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath, name, fmt.Sprintf(
		"must be no more than %d characters: its pods are labelled controller-revision-hash=<name>-<hash of up to %d characters>, and a label value may be at most %d characters",
		MaxWorkloadNameLength, maxRevisionHashLength, validation.LabelValueMaxLength))}
}
