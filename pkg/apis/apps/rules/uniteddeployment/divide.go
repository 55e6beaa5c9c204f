package uniteddeployment

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/intstr"
)

// Quota is what a subset asks for, in topology order.
type Quota struct {
	Name string
	// Replicas is a number or a percent of the total; nil takes a share of the rest.
	Replicas *intstr.IntOrString
	// MinReplicas and MaxReplicas make the subset elastic (exclusive with Replicas).
	MinReplicas, MaxReplicas *intstr.IntOrString
	// Full is set (Adaptive scheduling) when the subset's new pods stay unschedulable:
	// it then keeps at most Room replicas and the rest moves to later subsets.
	Full bool
	Room int32
}

// Scaled returns v as a count of total: a number as is, "<n>%" as n percent of total
// rounded to the nearest (half up), as OpenKruise does.
func Scaled(v intstr.IntOrString, total int32) (int32, error) {
	if v.Type == intstr.Int {
		if v.IntVal < 0 {
			return 0, fmt.Errorf("%d is negative", v.IntVal)
		}
		return v.IntVal, nil
	}
	digits, ok := strings.CutSuffix(v.StrVal, "%")
	if !ok {
		return 0, fmt.Errorf("%q is neither a number nor a percent", v.StrVal)
	}
	p, err := strconv.Atoi(digits)
	if err != nil || p < 0 || p > 100 {
		return 0, fmt.Errorf("%q is not a percent between 0%% and 100%%", v.StrVal)
	}
	return int32(math.Round(float64(total) * float64(p) / 100)), nil
}

// Elastic reports whether the subsets are divided by minReplicas/maxReplicas.
func Elastic(subsets []Quota) bool {
	for _, s := range subsets {
		if s.MinReplicas != nil || s.MaxReplicas != nil {
			return true
		}
	}
	return false
}

// Divide splits total between subsets, returning each subset's replicas in order.
//
// Fixed shares (no subset sets minReplicas or maxReplicas): a subset with replicas
// gets that number or percent of total; the subsets without share what is left
// evenly, the first ones one more when it does not divide. If the fixed shares ask
// for more than total (the API refuses it, but a scale-down may get there), earlier
// subsets are served first.
//
// Elastic (minReplicas/maxReplicas): subsets reach their minimum in order, then fill
// up to their maximum in order (no maximum: unbounded), so that scaling up fills the
// first (cheapest) subsets first and scaling down empties the last ones first. What
// no subset can take goes to the last subset.
//
// Adaptive: a Full subset keeps at most Room replicas; its excess goes to the next
// subsets that are not full, within their maximum, else stays where it was.
func Divide(total int32, subsets []Quota) ([]int32, error) {
	if total < 0 {
		total = 0
	}
	var out []int32
	var err error
	if Elastic(subsets) {
		out, err = divideElastic(total, subsets)
	} else {
		out, err = divideFixed(total, subsets)
	}
	if err != nil {
		return nil, err
	}
	return moveFromFull(out, subsets, total)
}

func divideFixed(total int32, subsets []Quota) ([]int32, error) {
	out := make([]int32, len(subsets))
	left := total
	var rest []int
	for i, s := range subsets {
		if s.Replicas == nil {
			rest = append(rest, i)
			continue
		}
		n, err := Scaled(*s.Replicas, total)
		if err != nil {
			return nil, fmt.Errorf("subset %s: replicas %w", s.Name, err)
		}
		n = min(n, left)
		out[i] = n
		left -= n
	}
	if len(rest) > 0 {
		share, extra := left/int32(len(rest)), left%int32(len(rest))
		for k, i := range rest {
			out[i] = share
			if int32(k) < extra {
				out[i]++
			}
		}
	}
	return out, nil
}

func divideElastic(total int32, subsets []Quota) ([]int32, error) {
	out := make([]int32, len(subsets))
	maxes := make([]int32, len(subsets))
	left := total
	for i, s := range subsets {
		maxes[i] = math.MaxInt32
		if s.MaxReplicas != nil {
			m, err := Scaled(*s.MaxReplicas, total)
			if err != nil {
				return nil, fmt.Errorf("subset %s: maxReplicas %w", s.Name, err)
			}
			maxes[i] = m
		}
		if s.MinReplicas != nil {
			m, err := Scaled(*s.MinReplicas, total)
			if err != nil {
				return nil, fmt.Errorf("subset %s: minReplicas %w", s.Name, err)
			}
			n := min(m, maxes[i], left)
			out[i] = n
			left -= n
		}
	}
	for i := range subsets {
		n := min(maxes[i]-out[i], left)
		out[i] += n
		left -= n
	}
	if left > 0 && len(out) > 0 {
		out[len(out)-1] += left
	}
	return out, nil
}

// moveFromFull applies Adaptive scheduling: each full subset's replicas above its
// room go to the later subsets that are not full, within their maximum.
func moveFromFull(out []int32, subsets []Quota, total int32) ([]int32, error) {
	for i, s := range subsets {
		if !s.Full || out[i] <= s.Room {
			continue
		}
		excess := out[i] - max(s.Room, 0)
		out[i] -= excess
		for j := i + 1; j < len(subsets) && excess > 0; j++ {
			if subsets[j].Full {
				continue
			}
			room := int32(math.MaxInt32)
			if m := subsets[j].MaxReplicas; m != nil {
				v, err := Scaled(*m, total)
				if err != nil {
					return nil, fmt.Errorf("subset %s: maxReplicas %w", subsets[j].Name, err)
				}
				room = max(v-out[j], 0)
			}
			n := min(room, excess)
			out[j] += n
			excess -= n
		}
		out[i] += excess // no later subset could take them
	}
	return out, nil
}
