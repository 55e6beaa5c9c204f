package ordinals

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/util/intstr"
)

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

// DesiredOrdinals lists the desired ordinals the slow way, one ordinal after the other:
// the oracle Desired is checked against (and what the plans used to allocate, a slice
// of replicas ordinals).
func DesiredOrdinals(start, replicas int, reserved Reserved) []int {
	out := []int{}
	for ord := start; len(out) < replicas && ord <= MaxOrdinal; ord++ {
		if !reserved.Has(ord) {
			out = append(out, ord)
		}
	}
	return out
}

func TestDesiredOrdinals(t *testing.T) {
	cases := []struct {
		name     string
		start    int
		replicas int
		reserved Reserved
		want     []int
	}{
		{"native", 0, 5, Reserved{}, []int{0, 1, 2, 3, 4}},
		{"none", 0, 0, Reserved{}, []int{}},
		{"reserve 1 with 5 replicas runs 0,2,3,4,5", 0, 5, reserve(1), []int{0, 2, 3, 4, 5}},
		{"appending 3 moves its pod to the next free ordinal", 0, 5, reserve(1, 3), []int{0, 2, 4, 5, 6}},
		{"4 replicas reserving 1 then 3: 3 migrates to 5", 0, 4, reserve(1, 3), []int{0, 2, 4, 5}},
		{"range", 0, 3, reserve("1-3"), []int{0, 4, 5}},
		{"overlapping and adjacent spans merge", 0, 3, reserve("2-4", 3, "5-6", 0), []int{1, 7, 8}},
		{"start", 3, 3, Reserved{}, []int{3, 4, 5}},
		{"start with reserved ordinals below it", 3, 2, reserve(1, 4), []int{3, 5}},
		{"huge range", 0, 2, reserve("0-1000000"), []int{1000001, 1000002}},
		{"numeric string", 0, 2, reserve("0"), []int{1, 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := DesiredOrdinals(tc.start, tc.replicas, tc.reserved); !slices.Equal(got, tc.want) {
				t.Fatalf("DesiredOrdinals(%d, %d) = %v, want %v", tc.start, tc.replicas, got, tc.want)
			}
			checkDesired(t, NewDesired(tc.start, tc.replicas, tc.reserved), tc.want)
		})
	}
}

// checkDesired asserts that d describes exactly the ordinals want, ascending.
func checkDesired(t *testing.T, d Desired, want []int) {
	t.Helper()
	if d.Len() != len(want) {
		t.Fatalf("Len() = %d, want %d", d.Len(), len(want))
	}
	var walked []int
	for i, ord := 0, d.First(); i < d.Len(); i, ord = i+1, d.After(ord) {
		walked = append(walked, ord)
	}
	if !slices.Equal(walked, want) && len(want) > 0 {
		t.Fatalf("walking first/after gives %v, want %v", walked, want)
	}
	desired := map[int]int{}
	for i, o := range want {
		desired[o] = i
	}
	hi := 10
	if len(want) > 0 {
		hi = want[len(want)-1] + 3
	}
	for ord := -1; ord <= hi; ord++ {
		pos, ok := d.Position(ord)
		wantPos, wantOK := desired[ord]
		if ok != wantOK || (ok && pos != wantPos) {
			t.Fatalf("Position(%d) = %d, %v; want %d, %v", ord, pos, ok, wantPos, wantOK)
		}
		if d.Has(ord) != wantOK {
			t.Fatalf("Has(%d) = %v, want %v", ord, !wantOK, wantOK)
		}
	}
}

// Desired agrees with listing the ordinals one by one, whatever the reserved spans.
func TestDesiredAgreesWithTheList(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for range 3000 {
		var entries []any
		for range r.Intn(5) {
			if r.Intn(2) == 0 {
				entries = append(entries, r.Intn(30))
			} else {
				lo := r.Intn(30)
				entries = append(entries, fmt.Sprintf("%d-%d", lo, lo+r.Intn(6)))
			}
		}
		start, replicas := r.Intn(8), r.Intn(25)
		reserved := reserve(entries...)
		checkDesired(t, NewDesired(start, replicas, reserved), DesiredOrdinals(start, replicas, reserved))
	}
}

// The largest numbers cost nothing and stay within the 32-bit ordinals a pod name can
// carry (a set's ordinals end at MaxOrdinal, however many replicas it asks for).
func TestDesiredOfHugeSets(t *testing.T) {
	cases := []struct {
		name            string
		start, replicas int
		reserved        Reserved
		wantLen         int
		probe, probePos int
		probeOK         bool
	}{
		{"2147483647 replicas", 0, math.MaxInt32, Reserved{}, math.MaxInt32, MaxOrdinal - 1, MaxOrdinal - 1, true},
		{"the last ordinal is not desired", 0, math.MaxInt32, Reserved{}, math.MaxInt32, MaxOrdinal, 0, false},
		{"a start pushes the end past MaxOrdinal: fewer pods", 10, math.MaxInt32, Reserved{}, MaxOrdinal - 9, MaxOrdinal, MaxOrdinal - 10, true},
		{"a huge reserved range is skipped arithmetically", 0, math.MaxInt32, reserve("0-1000000000"), MaxOrdinal - 1000000000, 1000000001, 0, true},
		{"reserved at the very top", 0, math.MaxInt32, reserve(fmt.Sprintf("%d-%d", MaxOrdinal-1, MaxOrdinal)), MaxOrdinal - 1, MaxOrdinal - 2, MaxOrdinal - 2, true},
		{"start above every ordinal", MaxOrdinal + 1, 3, Reserved{}, 0, MaxOrdinal + 1, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDesired(tc.start, tc.replicas, tc.reserved)
			if d.Len() != tc.wantLen {
				t.Errorf("Len() = %d, want %d", d.Len(), tc.wantLen)
			}
			if pos, ok := d.Position(tc.probe); ok != tc.probeOK || (ok && pos != tc.probePos) {
				t.Errorf("Position(%d) = %d, %v; want %d, %v", tc.probe, pos, ok, tc.probePos, tc.probeOK)
			}
		})
	}
}

func TestReservedHas(t *testing.T) {
	r := reserve(1, "5-7", 9)
	for ord, want := range map[int]bool{0: false, 1: true, 2: false, 4: false, 5: true, 6: true, 7: true, 8: false, 9: true, 10: false} {
		if got := r.Has(ord); got != want {
			t.Errorf("Has(%d) = %v, want %v", ord, got, want)
		}
	}
}

func TestParseReservedRejectsGarbage(t *testing.T) {
	for _, s := range []string{"a", "3-", "-3", "5-2", "1-2-3", ""} {
		if _, err := ParseReserved([]intstr.IntOrString{intstr.FromString(s)}); err == nil {
			t.Errorf("ParseReserved(%q) succeeded", s)
		}
	}
	if _, err := ParseReserved([]intstr.IntOrString{intstr.FromInt32(-1)}); err == nil {
		t.Error("ParseReserved(-1) succeeded")
	}
}

func TestOrdinalOf(t *testing.T) {
	cases := []struct {
		set, pod string
		want     int
	}{
		{"web", "web-0", 0},
		{"web", "web-12", 12},
		{"web", "web-01", -1},
		{"web", "web-", -1},
		{"web", "web", -1},
		{"web", "webx-1", -1},
		{"web", "web-a", -1},
		{"web", "web-web-1", -1},
		{"web-web", "web-web-1", 1},
		{"web", "web--1", -1},
		{"web", "web-99999999999", -1},
	}
	for _, tc := range cases {
		if got := OrdinalOf(tc.set, tc.pod); got != tc.want {
			t.Errorf("OrdinalOf(%q, %q) = %d, want %d", tc.set, tc.pod, got, tc.want)
		}
		if tc.want >= 0 && PodName(tc.set, tc.want) != tc.pod {
			t.Errorf("PodName(%q, %d) = %q, want %q", tc.set, tc.want, PodName(tc.set, tc.want), tc.pod)
		}
	}
}
