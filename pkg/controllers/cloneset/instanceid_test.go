package cloneset

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/sets"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
)

// Picking an instance id never loops for ever: draws that keep colliding move on to
// longer ids, and when every length is exhausted the pick fails with an error.
func TestInstanceIDs(t *testing.T) {
	used := sets.New("aaaaa", "bbbbb")
	cases := []struct {
		name    string
		random  func(n int) string
		want    string
		wantErr bool
	}{
		{name: "a free id at once", random: func(n int) string { return strings.Repeat("c", n) }, want: "ccccc"},
		{name: "every 5-character draw collides: a 6-character id",
			random: func(n int) string {
				if n == idLength {
					return "aaaaa"
				}
				return strings.Repeat("d", n)
			}, want: "dddddd"},
		{name: "every draw collides at every length: an error, not a loop",
			random:  func(int) string { return "bbbbb" },
			wantErr: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			draws := 0
			g := &instanceIDs{used: used.Clone(), random: func(n int) string { draws++; return tc.random(n) }}
			got, err := g.next()
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Fatalf("next() = %q, %v; want %q (error %v)", got, err, tc.want, tc.wantErr)
			}
			if draws > idAttempts*(maxIDLength-idLength+1) {
				t.Fatalf("%d draws", draws)
			}
			if err == nil && !g.used.Has(got) {
				t.Fatalf("%q not remembered as used", got)
			}
		})
	}
}

// The real generator hands out distinct ids of the documented length, and the
// longest possible pod name fits a hostname.
func TestInstanceIDsAreDistinct(t *testing.T) {
	g := newInstanceIDs(sets.New[string]())
	seen := sets.New[string]()
	for range 2000 {
		id, err := g.next()
		if err != nil {
			t.Fatal(err)
		}
		if seen.Has(id) || len(id) < idLength {
			t.Fatalf("id %q repeated or too short", id)
		}
		seen.Insert(id)
	}
	if n := validation.MaxWorkloadNameLength + 1 + maxIDLength; n > utilvalidation.DNS1123LabelMaxLength {
		t.Fatalf("the longest pod name has %d characters, more than a hostname's %d", n, utilvalidation.DNS1123LabelMaxLength)
	}
}
