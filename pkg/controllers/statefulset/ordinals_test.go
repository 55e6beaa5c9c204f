package statefulset

import (
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
		{"huge range is skipped in one step", 0, 2, reserve("0-1000000000"), []int{1000000001, 1000000002}},
		{"numeric string", 0, 2, reserve("0"), []int{1, 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := DesiredOrdinals(tc.start, tc.replicas, tc.reserved)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("DesiredOrdinals(%d, %d) = %v, want %v", tc.start, tc.replicas, got, tc.want)
			}
			for _, o := range got {
				if tc.reserved.Has(o) {
					t.Errorf("ordinal %d is reserved", o)
				}
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
