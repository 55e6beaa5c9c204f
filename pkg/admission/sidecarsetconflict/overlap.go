package sidecarsetconflict

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/apimachinery/pkg/util/sets"
)

// selectorsOverlap reports whether some label set matches both selectors; nil selects
// everything. Label keys are independent, so the two overlap exactly when, key by key,
// the requirements both put on that key can hold at once.
func selectorsOverlap(a, b *metav1.LabelSelector) (bool, error) {
	byKey := map[string][]labels.Requirement{}
	for _, s := range []*metav1.LabelSelector{a, b} {
		if s == nil {
			continue
		}
		sel, err := metav1.LabelSelectorAsSelector(s)
		if err != nil {
			return false, fmt.Errorf("parsing selector %s: %w", metav1.FormatLabelSelector(s), err)
		}
		reqs, _ := sel.Requirements()
		for _, r := range reqs {
			byKey[r.Key()] = append(byKey[r.Key()], r)
		}
	}
	for _, reqs := range byKey {
		if !satisfiable(reqs) {
			return false, nil
		}
	}
	return true, nil
}

// satisfiable reports whether one label key can meet every requirement at once:
// absent (if nothing needs it present), or with a value every In allows and no NotIn
// forbids (values outside every list are always free when only Exists asks for one).
func satisfiable(reqs []labels.Requirement) bool {
	mustExist, mustNotExist := false, false
	var allowed sets.Set[string] // nil: any value
	forbidden := sets.New[string]()
	for _, r := range reqs {
		switch r.Operator() {
		case selection.In, selection.Equals, selection.DoubleEquals:
			mustExist = true
			values := sets.New(r.ValuesUnsorted()...)
			if allowed == nil {
				allowed = values
			} else {
				allowed = allowed.Intersection(values)
			}
		case selection.NotIn, selection.NotEquals:
			forbidden.Insert(r.ValuesUnsorted()...)
		case selection.Exists:
			mustExist = true
		case selection.DoesNotExist:
			mustNotExist = true
		default:
			// Gt/Lt never come from a metav1.LabelSelector; assume they can hold.
			mustExist = true
		}
	}
	switch {
	case mustExist && mustNotExist:
		return false
	case !mustExist:
		return true
	case allowed == nil:
		return true
	default:
		return allowed.Difference(forbidden).Len() > 0
	}
}
