package statefulset

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/intstr"
)

// Reserved is the set of ordinals spec.reserveOrdinals keeps free, as sorted,
// non-overlapping closed intervals: a range such as "0-1000000" costs one interval,
// never a million set entries.
type Reserved struct {
	spans []span
}

type span struct{ lo, hi int }

// ParseReserved reads spec.reserveOrdinals: each entry an ordinal or a range "a-b"
// (inclusive). Validation rejects anything else; a stored object that slipped through
// is reported, not skipped silently.
func ParseReserved(entries []intstr.IntOrString) (Reserved, error) {
	var spans []span
	for _, e := range entries {
		switch e.Type {
		case intstr.Int:
			if e.IntVal < 0 {
				return Reserved{}, fmt.Errorf("reserveOrdinals: negative ordinal %d", e.IntVal)
			}
			spans = append(spans, span{int(e.IntVal), int(e.IntVal)})
		case intstr.String:
			lo, hi, err := parseRange(e.StrVal)
			if err != nil {
				return Reserved{}, err
			}
			spans = append(spans, span{lo, hi})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
	var merged []span
	for _, s := range spans {
		if n := len(merged); n > 0 && s.lo <= merged[n-1].hi+1 {
			merged[n-1].hi = max(merged[n-1].hi, s.hi)
			continue
		}
		merged = append(merged, s)
	}
	return Reserved{spans: merged}, nil
}

// parseRange reads "a-b" (or a lone number written as a string).
func parseRange(s string) (int, int, error) {
	a, b, isRange := strings.Cut(s, "-")
	lo, err := strconv.ParseInt(a, 10, 32)
	if err != nil || lo < 0 {
		return 0, 0, fmt.Errorf("reserveOrdinals: %q is neither an ordinal nor a range a-b", s)
	}
	if !isRange {
		return int(lo), int(lo), nil
	}
	hi, err := strconv.ParseInt(b, 10, 32)
	if err != nil || hi < lo {
		return 0, 0, fmt.Errorf("reserveOrdinals: %q is neither an ordinal nor a range a-b", s)
	}
	return int(lo), int(hi), nil
}

// Has reports whether ordinal is reserved.
func (r Reserved) Has(ordinal int) bool {
	i := sort.Search(len(r.spans), func(i int) bool { return r.spans[i].hi >= ordinal })
	return i < len(r.spans) && r.spans[i].lo <= ordinal
}

// DesiredOrdinals returns, ascending, the ordinals a set with replicas pods runs: the
// first replicas ordinals from start on that are not reserved. Reserved ordinals are
// skipped, not counted: replicas is always the number of pods.
func DesiredOrdinals(start, replicas int, reserved Reserved) []int {
	out := make([]int, 0, max(replicas, 0))
	next := 0 // first span that may still lie at or above ord
	for ord := start; len(out) < replicas; ord++ {
		for next < len(reserved.spans) && reserved.spans[next].hi < ord {
			next++
		}
		if next < len(reserved.spans) && reserved.spans[next].lo <= ord {
			ord = reserved.spans[next].hi // jump over the whole span
			continue
		}
		out = append(out, ord)
	}
	return out
}

// OrdinalOf parses the ordinal from a pod name <set>-<ordinal>; -1 when the name is
// not of that form (such a pod is left alone, as kube's controller does).
func OrdinalOf(setName, podName string) int {
	rest, ok := strings.CutPrefix(podName, setName+"-")
	if !ok || rest == "" || (len(rest) > 1 && rest[0] == '0') {
		return -1
	}
	n, err := strconv.ParseInt(rest, 10, 32)
	if err != nil || n < 0 {
		return -1
	}
	return int(n)
}

// PodName is the name of the set's pod at ordinal.
func PodName(setName string, ordinal int) string {
	return setName + "-" + strconv.Itoa(ordinal)
}
