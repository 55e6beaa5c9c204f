package validation

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateNoDotInName refuses a dotted name, as OpenKruise's webhooks refuse it for
// BroadcastJobs and AdvancedCronJobs (their names are letters, digits and '-'). Only
// on create: a name never changes.
func validateNoDotInName(kind, name string, fldPath *field.Path) field.ErrorList {
	if !strings.Contains(name, ".") {
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath, name,
		fmt.Sprintf("a %s name must consist of lower case alphanumeric characters or '-' (no '.')", kind))}
}
