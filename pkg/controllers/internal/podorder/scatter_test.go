package podorder

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

var fooBar = []pub.UpdateScatterTerm{{Key: "foo", Value: "bar"}}

// PodRef is a pod as the scatter tests see it.
type PodRef struct {
	Name   string
	Labels map[string]string
}

// Scatter applies scatterOrder to pods, returning them reordered.
func Scatter(terms []pub.UpdateScatterTerm, pods []PodRef) []PodRef {
	order := scatterOrder(terms, len(pods), func(i int) map[string]string { return pods[i].Labels })
	out := make([]PodRef, len(pods))
	for i, idx := range order {
		out[i] = pods[idx]
	}
	return out
}

// refs builds pods p0, p1, ... from a layout: "M" carries foo=bar, "A" a=1, "B" b=1,
// "AB" both, anything else no label.
func refs(layout ...string) []PodRef {
	out := make([]PodRef, len(layout))
	for i, l := range layout {
		labels := map[string]string{}
		switch l {
		case "M":
			labels["foo"] = "bar"
		case "A":
			labels["a"] = "1"
		case "B":
			labels["b"] = "1"
		case "AB":
			labels["a"], labels["b"] = "1", "1"
		case "W":
			labels["foo"] = "baz" // same key, other value
		}
		out[i] = PodRef{Name: fmt.Sprintf("p%d", i), Labels: labels}
	}
	return out
}

func names(pods []PodRef) string {
	var s []string
	for _, p := range pods {
		s = append(s, p.Name)
	}
	return strings.Join(s, " ")
}

func TestScatter(t *testing.T) {
	tests := []struct {
		name  string
		terms []pub.UpdateScatterTerm
		pods  []PodRef
		want  string
	}{
		{
			// The documented example: 10 pods, 3 with foo=bar: they are updated 1st, 6th and 10th.
			name: "doc: 3 of 10 become 1st, 6th and 10th",
			pods: refs("", "", "M", "M", "", "", "", "M", "", ""),
			want: "p2 p0 p1 p4 p5 p3 p6 p8 p9 p7",
		},
		{name: "2 of 6: first and last", pods: refs("", "", "", "", "M", "M"), want: "p4 p0 p1 p2 p3 p5"},
		{name: "3 of 6", pods: refs("", "", "", "M", "M", "M"), want: "p3 p0 p1 p4 p2 p5"},
		{name: "3 of 9", pods: refs("", "", "", "", "", "", "M", "M", "M"), want: "p6 p0 p1 p2 p7 p3 p4 p5 p8"},
		{name: "2 of 7", pods: refs("", "", "", "M", "", "", "M"), want: "p3 p0 p1 p2 p4 p5 p6"},
		{name: "more matching than not", pods: refs("", "", "M", "M", "M", "M"), want: "p2 p0 p3 p4 p1 p5"},
		{name: "one match: unchanged", pods: refs("", "M", "", ""), want: "p0 p1 p2 p3"},
		{name: "one non-match: unchanged", pods: refs("M", "M", "", "M"), want: "p0 p1 p2 p3"},
		{name: "no match: unchanged", pods: refs("", "W", "", "W"), want: "p0 p1 p2 p3"},
		{name: "already scattered: unchanged", pods: refs("M", "", "", "M"), want: "p0 p1 p2 p3"},
		{name: "fewer than 4 pods: unchanged", pods: refs("", "M", "M"), want: "p0 p1 p2"},
		{name: "no terms: unchanged", terms: []pub.UpdateScatterTerm{}, pods: refs("M", "M", "", ""), want: "p0 p1 p2 p3"},
		{name: "empty", pods: nil, want: ""},
		{
			// b matches fewer pods, so it is spread last and exactly (first and last);
			// a was spread before and keeps its relative order.
			name:  "two terms: the rarer one is spread last",
			terms: []pub.UpdateScatterTerm{{Key: "b", Value: "1"}, {Key: "a", Value: "1"}},
			pods:  refs("", "", "A", "A", "A", "A", "B", "B"),
			want:  "p6 p2 p0 p3 p1 p4 p5 p7",
		},
		{
			name:  "a repeated term counts once",
			terms: []pub.UpdateScatterTerm{{Key: "foo", Value: "bar"}, {Key: "foo", Value: "bar"}},
			pods:  refs("", "", "", "", "M", "M"),
			want:  "p4 p0 p1 p2 p3 p5",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			terms := tt.terms
			if terms == nil {
				terms = fooBar
			}
			before := names(tt.pods)
			got := Scatter(terms, tt.pods)
			if names(got) != tt.want {
				t.Errorf("Scatter = %q, want %q", names(got), tt.want)
			}
			if names(tt.pods) != before {
				t.Errorf("input modified: %q", names(tt.pods))
			}
		})
	}
}

// TestScatterInvariants: for random lists and one term, the result is a permutation,
// each group keeps its order, the first and last match sit at the ends, and matches
// are never closer than floor((n-1)/(m-1)) nor further than its ceiling.
func TestScatterInvariants(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for iter := 0; iter < 2000; iter++ {
		n := r.Intn(30)
		layout := make([]string, n)
		for i := range layout {
			if r.Intn(3) == 0 {
				layout[i] = "M"
			}
		}
		pods := refs(layout...)
		got := Scatter(fooBar, pods)
		if len(got) != n {
			t.Fatalf("%v: got %d pods", layout, len(got))
		}
		var gotM, gotU, wantM, wantU []string
		var pos []int
		for i, p := range got {
			if p.Labels["foo"] == "bar" {
				gotM = append(gotM, p.Name)
				pos = append(pos, i)
			} else {
				gotU = append(gotU, p.Name)
			}
		}
		for _, p := range pods {
			if p.Labels["foo"] == "bar" {
				wantM = append(wantM, p.Name)
			} else {
				wantU = append(wantU, p.Name)
			}
		}
		if !reflect.DeepEqual(gotM, wantM) || !reflect.DeepEqual(gotU, wantU) {
			t.Fatalf("%v: groups reordered: %s", layout, names(got))
		}
		m := len(wantM)
		if m < 2 || len(wantU) < 2 {
			if names(got) != names(pods) {
				t.Fatalf("%v: changed although nothing to spread: %s", layout, names(got))
			}
			continue
		}
		if pos[0] != 0 || pos[m-1] != n-1 {
			t.Fatalf("%v: matches at %v, want first and last", layout, pos)
		}
		lo, hi := (n-1)/(m-1), (n-1+m-2)/(m-1)
		for k := 1; k < m; k++ {
			if gap := pos[k] - pos[k-1]; gap < lo || gap > hi {
				t.Fatalf("%v: matches at %v, gap %d outside [%d,%d]", layout, pos, gap, lo, hi)
			}
		}
	}
}
