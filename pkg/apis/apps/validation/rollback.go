package validation

import (
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateRollback checks a rollback request body: the optional workload name (the
// REST layer compares it with the URL) and a revision that is not negative, where
// 0 means the previous revision.
func validateRollback(name string, toRevision int64, nameFn apimachineryvalidation.ValidateNameFunc) field.ErrorList {
	var allErrs field.ErrorList
	if name != "" {
		for _, msg := range nameFn(name, false) {
			allErrs = append(allErrs, field.Invalid(field.NewPath("name"), name, msg))
		}
	}
	allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(toRevision, field.NewPath("toRevision"))...)
	return allErrs
}
