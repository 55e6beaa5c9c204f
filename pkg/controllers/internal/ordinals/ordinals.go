// Package ordinals is the arithmetic of a StatefulSet's ordinals (start, replicas and
// reserved ordinals), shared by the Advanced StatefulSet controller and the
// PersistentPodState controller (which keeps the records of the ordinals a set still
// asks for).
package ordinals

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/intstr"
)

// Reserved is the set of ordinals spec.reserveOrdinals keeps free, as sorted,
// non-overlapping, non-adjacent closed intervals: a range such as "0-1000000" costs one
// interval, never a million set entries.
type Reserved struct {
	spans []span
	// below[i] counts the reserved ordinals of spans[:i], so that counting the reserved
	// ordinals under a bound is a binary search.
	below []int
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
	var r Reserved
	for _, s := range spans {
		if n := len(r.spans); n > 0 && s.lo <= r.spans[n-1].hi+1 {
			r.spans[n-1].hi = max(r.spans[n-1].hi, s.hi)
			continue
		}
		r.spans = append(r.spans, s)
	}
	r.below = make([]int, len(r.spans))
	for i := 1; i < len(r.spans); i++ {
		r.below[i] = r.below[i-1] + r.spans[i-1].hi - r.spans[i-1].lo + 1
	}
	return r, nil
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

// spanAt is the index of the first span that ends at or above ordinal.
func (r Reserved) spanAt(ordinal int) int {
	return sort.Search(len(r.spans), func(i int) bool { return r.spans[i].hi >= ordinal })
}

// Has reports whether ordinal is reserved.
func (r Reserved) Has(ordinal int) bool {
	i := r.spanAt(ordinal)
	return i < len(r.spans) && r.spans[i].lo <= ordinal
}

// countBelow is the number of reserved ordinals below ordinal.
func (r Reserved) countBelow(ordinal int) int {
	i := r.spanAt(ordinal)
	n := 0
	if i < len(r.spans) {
		n = r.below[i]
		if s := r.spans[i]; s.lo < ordinal {
			n += ordinal - s.lo
		}
	} else if len(r.spans) > 0 {
		last := r.spans[len(r.spans)-1]
		n = r.below[len(r.spans)-1] + last.hi - last.lo + 1
	}
	return n
}

// nextFree is the first ordinal at or above ordinal that is not reserved (spans are
// never adjacent, so the one after a span is free).
func (r Reserved) nextFree(ordinal int) int {
	if i := r.spanAt(ordinal); i < len(r.spans) && r.spans[i].lo <= ordinal {
		return r.spans[i].hi + 1
	}
	return ordinal
}

// MaxOrdinal is the highest ordinal a set runs: a pod's ordinal is read back from its
// name as a 32-bit number (OrdinalOf, as kube does), so a set whose ordinals.start,
// replicas and reserved ordinals would reach past it runs fewer pods.
const MaxOrdinal = math.MaxInt32

// Desired is the set of ordinals a set runs: the first replicas ordinals from start on
// that are not reserved (reserved ordinals are skipped, not counted: replicas is the
// number of pods), up to MaxOrdinal. It is a description, never a list: a set of
// 2147483647 replicas costs what a set of 3 does, and every question is answered by
// arithmetic over the reserved spans.
type Desired struct {
	start, replicas int
	reserved        Reserved
	// len is how many ordinals are desired: replicas, or fewer below MaxOrdinal.
	len int
}

// NewDesired describes the ordinals of a set with replicas pods from start on.
func NewDesired(start, replicas int, reserved Reserved) Desired {
	d := Desired{start: max(start, 0), replicas: max(replicas, 0), reserved: reserved}
	if d.start <= MaxOrdinal {
		free := MaxOrdinal - d.start + 1 - (reserved.countBelow(MaxOrdinal+1) - reserved.countBelow(d.start))
		d.len = min(d.replicas, free)
	}
	return d
}

// Len is the number of desired ordinals.
func (d Desired) Len() int { return d.len }

// Position returns ordinal's index among the desired ordinals in ascending order, and
// whether it is desired at all.
func (d Desired) Position(ordinal int) (int, bool) {
	if ordinal < d.start || ordinal > MaxOrdinal || d.reserved.Has(ordinal) {
		return 0, false
	}
	pos := ordinal - d.start - (d.reserved.countBelow(ordinal) - d.reserved.countBelow(d.start))
	return pos, pos < d.len
}

// Has reports whether ordinal is desired.
func (d Desired) Has(ordinal int) bool {
	_, ok := d.Position(ordinal)
	return ok
}

// First is the lowest desired ordinal (meaningful when Len > 0).
func (d Desired) First() int { return d.reserved.nextFree(d.start) }

// After is the desired ordinal that follows ordinal (meaningful below the last one).
func (d Desired) After(ordinal int) int { return d.reserved.nextFree(ordinal + 1) }

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
