package podorder

import (
	"sort"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// scatterOrder returns the permutation of 0..n-1 that scatters the items whose labels
// are labelsOf(i), starting from their current order: the items matching a term (label
// key=value) are spread evenly instead of following each other. The first matching item
// goes first, the last one last, the others at even intervals between: with 10 items of
// which 3 carry foo=bar, those 3 become the 1st, 6th and 10th. The items that do not
// match keep their relative order, and so do those that do.
//
// A term is skipped while fewer than two items match it or fewer than two do not
// (there is nothing to spread). With several terms, the term matching the most items is
// spread first and the one matching the fewest last, so the rarest term is spread
// exactly and the others as well as that allows.
func scatterOrder(terms []pub.UpdateScatterTerm, n int, labelsOf func(int) map[string]string) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if n < 4 {
		return order
	}
	for _, t := range scatterTerms(terms, n, labelsOf) {
		order = spread(order, func(i int) bool {
			v, ok := labelsOf(i)[t.Key]
			return ok && v == t.Value
		})
	}
	return order
}

// scatterTerms returns the distinct terms that match at least one item, the ones
// matching the most items first (ties in the given order).
func scatterTerms(terms []pub.UpdateScatterTerm, n int, labelsOf func(int) map[string]string) []pub.UpdateScatterTerm {
	counts := map[pub.UpdateScatterTerm]int{}
	var out []pub.UpdateScatterTerm
	for _, t := range terms {
		if _, seen := counts[t]; seen {
			continue
		}
		c := 0
		for i := 0; i < n; i++ {
			if v, ok := labelsOf(i)[t.Key]; ok && v == t.Value {
				c++
			}
		}
		counts[t] = c
		if c > 0 {
			out = append(out, t)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return counts[out[i]] > counts[out[j]] })
	return out
}

// spread puts the matching items of order at evenly spaced positions: with m of n
// matching, the k-th one lands at round(k·(n-1)/(m-1)), so the first is first and the
// last is last. The spacing is at least 1, so positions never collide.
func spread(order []int, matches func(int) bool) []int {
	var matched, unmatched []int
	for _, idx := range order {
		if matches(idx) {
			matched = append(matched, idx)
		} else {
			unmatched = append(unmatched, idx)
		}
	}
	m, n := len(matched), len(order)
	if m < 2 || len(unmatched) < 2 {
		return order
	}
	out := make([]int, 0, n)
	k, u := 0, 0
	for pos := 0; pos < n; pos++ {
		// round half up of k*(n-1)/(m-1), in integers
		if k < m && pos == (2*k*(n-1)+(m-1))/(2*(m-1)) {
			out = append(out, matched[k])
			k++
		} else {
			out = append(out, unmatched[u])
			u++
		}
	}
	return out
}
