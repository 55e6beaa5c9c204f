package statefulset

import "k8s.io/apimachinery/pkg/util/intstr"

// reserve parses reserveOrdinals entries (ints and "a-b" strings) for the tests.
func reserve(entries ...any) Reserved {
	var in []intstr.IntOrString
	for _, e := range entries {
		switch v := e.(type) {
		case int:
			in = append(in, intstr.FromInt32(int32(v)))
		case string:
			in = append(in, intstr.FromString(v))
		}
	}
	r, err := ParseReserved(in)
	if err != nil {
		panic(err)
	}
	return r
}

// DesiredOrdinals lists the desired ordinals the slow way, one after the other: the
// oracle the plans are checked against.
func DesiredOrdinals(start, replicas int, reserved Reserved) []int {
	out := []int{}
	for ord := start; len(out) < replicas && ord <= MaxOrdinal; ord++ {
		if !reserved.Has(ord) {
			out = append(out, ord)
		}
	}
	return out
}
