package validation

import (
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateSelectorNotEmpty: a budget's selector must name some label (OpenKruise's
// rule). An empty one selects every pod of the namespace, which is what a budget with
// no selector would mean by mistake.
func validateSelectorNotEmpty(selector *metav1.LabelSelector, fld *field.Path) field.ErrorList {
	if selector != nil && len(selector.MatchLabels)+len(selector.MatchExpressions) == 0 {
		return field.ErrorList{field.Invalid(fld, "{}", "an empty selector selects every pod of the namespace: name the pods' labels, or use targetRef")}
	}
	return nil
}

// validateSelectorNotEmptyUpdate applies the rule to an update only when the selector
// changed: budgets stored before it stay updatable.
func validateSelectorNotEmptyUpdate(selector, old *metav1.LabelSelector, fld *field.Path) field.ErrorList {
	if apiequality.Semantic.DeepEqual(selector, old) {
		return nil
	}
	return validateSelectorNotEmpty(selector, fld)
}
