package validation

import (
	"math"
	"strconv"
	"strings"

	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

const (
	msgIntOrPercent = "must be an integer or a percentage (e.g. '5%')"
	msgPercentOver  = "must not be greater than 100%"
)

// parsePercent returns the number in "<n>%" and whether s has that form.
func parsePercent(s string) (int, bool) {
	digits, ok := strings.CutSuffix(s, "%")
	if !ok || digits == "" {
		return 0, false
	}
	for _, r := range digits {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(digits)
	if err != nil {
		// Only overflow gets here: every digit string this long is far above 100.
		return math.MaxInt, true
	}
	return n, true
}

// validateIntOrPercent checks that v is an integer >= 0 or a string "<n>%". With
// capPercent, a percentage above 100% is rejected too.
func validateIntOrPercent(v intstr.IntOrString, capPercent bool, fldPath *field.Path) field.ErrorList {
	switch v.Type {
	case intstr.Int:
		return apimachineryvalidation.ValidateNonnegativeField(int64(v.IntVal), fldPath)
	case intstr.String:
		n, ok := parsePercent(v.StrVal)
		if !ok {
			return field.ErrorList{field.Invalid(fldPath, v.StrVal, msgIntOrPercent)}
		}
		if capPercent && n > 100 {
			return field.ErrorList{field.Invalid(fldPath, v.StrVal, msgPercentOver)}
		}
		return nil
	default:
		return field.ErrorList{field.Invalid(fldPath, v.String(), msgIntOrPercent)}
	}
}

// validateOptionalIntOrPercent is validateIntOrPercent for an optional field.
func validateOptionalIntOrPercent(v *intstr.IntOrString, capPercent bool, fldPath *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	return validateIntOrPercent(*v, capPercent, fldPath)
}

// isZeroIntOrPercent reports whether v is a well-formed 0 or "0%".
func isZeroIntOrPercent(v intstr.IntOrString) bool {
	switch v.Type {
	case intstr.Int:
		return v.IntVal == 0
	case intstr.String:
		n, ok := parsePercent(v.StrVal)
		return ok && n == 0
	}
	return false
}

// isPositiveIntOrPercent reports whether v is a well-formed value above 0 / 0%.
func isPositiveIntOrPercent(v intstr.IntOrString) bool {
	switch v.Type {
	case intstr.Int:
		return v.IntVal > 0
	case intstr.String:
		n, ok := parsePercent(v.StrVal)
		return ok && n > 0
	}
	return false
}

// ValidateOptionalIntOrPercent checks an optional integer-or-percent field of another
// Kruise group (policy.kruise.io) with the same rules and messages as this group's.
func ValidateOptionalIntOrPercent(v *intstr.IntOrString, capPercent bool, fldPath *field.Path) field.ErrorList {
	return validateOptionalIntOrPercent(v, capPercent, fldPath)
}
