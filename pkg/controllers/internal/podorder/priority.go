package podorder

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// Pods with a higher Priority are updated first (and deleted last).
//
// An order priority is encoded in one int64: the level of the first orderedKey the pod
// carries (the first term is the highest level) above orderValueBits bits of that
// label's value. Every pod carrying an earlier key so outranks every pod carrying only a
// later one, whatever the values, and a pod carrying none of the keys has priority 0,
// the lowest.
const (
	orderValueBits = 48
	// MaxOrderValue is the largest order value told apart from a larger one: label
	// values whose integer suffix exceeds it (15 digits and more) count as MaxOrderValue.
	MaxOrderValue = int64(1)<<orderValueBits - 1
	maxOrderLevel = int64(1)<<(63-orderValueBits) - 1
)

// Priority returns a pod's update priority under strategy; higher is updated first.
//
//   - weightPriority: the sum of the weights of the terms whose selector matches the
//     labels (a term with an invalid selector counts for nothing).
//   - orderPriority: ranked by the first term whose orderedKey the pod carries, earlier
//     terms first; within a term by the integer at the end of the label value ("5" is 5,
//     "sts-10" is 10), higher first. A value without trailing digits counts as 0; a pod
//     with none of the keys comes after every pod with one.
//   - both set (validation forbids it): weights, as OpenKruise; neither or nil: 0.
func Priority(strategy *pub.UpdatePriorityStrategy, podLabels map[string]string) int64 {
	return PriorityFor(strategy)(podLabels)
}

// PriorityFunc is a compiled strategy: a pod's Priority from its labels.
type PriorityFunc func(map[string]string) int64

// PriorityFor compiles strategy, parsing each selector once: a workload compiles its
// strategy once per sync, not once per pod.
func PriorityFor(strategy *pub.UpdatePriorityStrategy) PriorityFunc {
	switch {
	case strategy == nil:
		return func(map[string]string) int64 { return 0 }
	case len(strategy.WeightPriority) > 0:
		return weightPriority(strategy.WeightPriority)
	case len(strategy.OrderPriority) > 0:
		return orderPriority(strategy.OrderPriority)
	default:
		return func(map[string]string) int64 { return 0 }
	}
}

func weightPriority(terms []pub.UpdatePriorityWeightTerm) PriorityFunc {
	type term struct {
		weight   int64
		selector labels.Selector
	}
	compiled := make([]term, 0, len(terms))
	for i := range terms {
		s, err := metav1.LabelSelectorAsSelector(&terms[i].MatchSelector)
		if err != nil {
			continue
		}
		compiled = append(compiled, term{weight: int64(terms[i].Weight), selector: s})
	}
	return func(podLabels map[string]string) int64 {
		var sum int64
		for _, t := range compiled {
			if t.selector.Matches(labels.Set(podLabels)) {
				sum += t.weight
			}
		}
		return sum
	}
}

func orderPriority(terms []pub.UpdatePriorityOrderTerm) PriorityFunc {
	return func(podLabels map[string]string) int64 {
		for i, t := range terms {
			v, ok := podLabels[t.OrderedKey]
			if !ok {
				continue
			}
			level := min(int64(len(terms)-i), maxOrderLevel)
			return level<<orderValueBits | orderValue(v)
		}
		return 0
	}
}

// orderValue is the integer formed by the digits at the end of v (0 when v does not end
// in a digit), capped at MaxOrderValue.
func orderValue(v string) int64 {
	start := len(v)
	for start > 0 && v[start-1] >= '0' && v[start-1] <= '9' {
		start--
	}
	var n int64
	for _, c := range v[start:] {
		n = n*10 + int64(c-'0')
		if n > MaxOrderValue {
			return MaxOrderValue
		}
	}
	return n
}
