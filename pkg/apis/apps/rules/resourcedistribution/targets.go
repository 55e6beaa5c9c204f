package resourcedistribution

import (
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// neverTargets are never given a copy (NeverTargets).
var neverTargets = sets.New(NeverTargets...)

// TargetSet is where a distribution's copies belong.
type TargetSet struct {
	// Namespaces are the existing, active namespaces that get a copy, sorted.
	Namespaces []string
	// Missing are namespaces named in includedNamespaces that do not exist or are
	// terminating, sorted: they count as desired and as failed (NamespaceNotExists).
	Missing []string
}

// Desired is how many namespaces should hold a copy.
func (t TargetSet) Desired() int { return len(t.Namespaces) + len(t.Missing) }

// Targets computes a distribution's target namespaces from the namespaces that exist
// (the controller at every sync; kruise-apiserver's admission, to know where the user
// who writes the distribution must be allowed to write its copies):
//
//   - the union of every namespace (allNamespaces), the namespaces listed in
//     includedNamespaces and those matching namespaceLabelSelector (an empty selector
//     matches none),
//   - minus excludedNamespaces, which always win, and minus NeverTargets;
//   - a terminating namespace is no target: a copy made there would be deleted with it.
//     One that is listed in includedNamespaces is reported Missing, like one that does
//     not exist.
//
// The error is an invalid selector (validation refuses it; a stored one is reported).
func Targets(t *v1alpha1.ResourceDistributionTargets, namespaces []*corev1.Namespace) (TargetSet, error) {
	selector, err := namespaceSelector(t)
	if err != nil {
		return TargetSet{}, err
	}
	excluded := names(t.ExcludedNamespaces)
	included := names(t.IncludedNamespaces)
	var out TargetSet
	seen := sets.New[string]()
	for _, ns := range namespaces {
		seen.Insert(ns.Name)
		if excluded.Has(ns.Name) || neverTargets.Has(ns.Name) {
			continue
		}
		selected := t.AllNamespaces || included.Has(ns.Name) || selector.Matches(labels.Set(ns.Labels))
		switch {
		case !selected:
		case Terminating(ns):
			if included.Has(ns.Name) {
				out.Missing = append(out.Missing, ns.Name)
			}
		default:
			out.Namespaces = append(out.Namespaces, ns.Name)
		}
	}
	for name := range included {
		if !seen.Has(name) && !excluded.Has(name) && !neverTargets.Has(name) {
			out.Missing = append(out.Missing, name)
		}
	}
	sort.Strings(out.Namespaces)
	sort.Strings(out.Missing)
	return out, nil
}

// Concerns reports whether a change of ns may change the distribution's targets: ns
// is, or was, selected by them. The namespace event handler queues those distributions.
func Concerns(t *v1alpha1.ResourceDistributionTargets, ns *corev1.Namespace) bool {
	if neverTargets.Has(ns.Name) || names(t.ExcludedNamespaces).Has(ns.Name) {
		return false
	}
	if t.AllNamespaces || names(t.IncludedNamespaces).Has(ns.Name) {
		return true
	}
	selector, err := namespaceSelector(t)
	return err == nil && selector.Matches(labels.Set(ns.Labels))
}

func namespaceSelector(t *v1alpha1.ResourceDistributionTargets) (labels.Selector, error) {
	sel := &t.NamespaceLabelSelector
	if len(sel.MatchLabels) == 0 && len(sel.MatchExpressions) == 0 {
		return labels.Nothing(), nil
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return nil, fmt.Errorf("spec.targets.namespaceLabelSelector: %w", err)
	}
	return s, nil
}

func names(l v1alpha1.ResourceDistributionTargetNamespaces) sets.Set[string] {
	out := sets.New[string]()
	for _, n := range l.List {
		out.Insert(n.Name)
	}
	return out
}

// Terminating reports whether ns is being deleted: a copy made there would go with it.
func Terminating(ns *corev1.Namespace) bool {
	return ns.DeletionTimestamp != nil || ns.Status.Phase == corev1.NamespaceTerminating
}
