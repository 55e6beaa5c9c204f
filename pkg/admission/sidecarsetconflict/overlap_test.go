package sidecarsetconflict

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func sel(matchLabels map[string]string, exprs ...metav1.LabelSelectorRequirement) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: matchLabels, MatchExpressions: exprs}
}

func expr(key string, op metav1.LabelSelectorOperator, values ...string) metav1.LabelSelectorRequirement {
	return metav1.LabelSelectorRequirement{Key: key, Operator: op, Values: values}
}

func TestSelectorsOverlap(t *testing.T) {
	cases := []struct {
		name string
		a, b *metav1.LabelSelector
		want bool
	}{
		{"nil selects all", nil, sel(map[string]string{"app": "a"}), true},
		{"same labels", sel(map[string]string{"app": "a"}), sel(map[string]string{"app": "a"}), true},
		{"different keys", sel(map[string]string{"app": "a"}), sel(map[string]string{"tier": "web"}), true},
		{"different values", sel(map[string]string{"app": "a"}), sel(map[string]string{"app": "b"}), false},
		{"in meets equals", sel(nil, expr("app", metav1.LabelSelectorOpIn, "a", "b")), sel(map[string]string{"app": "b"}), true},
		{"disjoint ins", sel(nil, expr("app", metav1.LabelSelectorOpIn, "a", "b")), sel(nil, expr("app", metav1.LabelSelectorOpIn, "c")), false},
		{"notin excludes the only value", sel(map[string]string{"app": "a"}), sel(nil, expr("app", metav1.LabelSelectorOpNotIn, "a")), false},
		{"notin leaves another value", sel(nil, expr("app", metav1.LabelSelectorOpIn, "a", "b")), sel(nil, expr("app", metav1.LabelSelectorOpNotIn, "a")), true},
		{"exists meets notin", sel(nil, expr("app", metav1.LabelSelectorOpExists)), sel(nil, expr("app", metav1.LabelSelectorOpNotIn, "a")), true},
		{"exists against does not exist", sel(nil, expr("app", metav1.LabelSelectorOpExists)), sel(nil, expr("app", metav1.LabelSelectorOpDoesNotExist)), false},
		{"equals against does not exist", sel(map[string]string{"app": "a"}), sel(nil, expr("app", metav1.LabelSelectorOpDoesNotExist)), false},
		{"notin meets does not exist", sel(nil, expr("app", metav1.LabelSelectorOpNotIn, "a")), sel(nil, expr("app", metav1.LabelSelectorOpDoesNotExist)), true},
		{"one key disjoint is enough", sel(map[string]string{"app": "a", "tier": "web"}), sel(map[string]string{"app": "a", "tier": "db"}), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, pair := range [][2]*metav1.LabelSelector{{tc.a, tc.b}, {tc.b, tc.a}} {
				got, err := selectorsOverlap(pair[0], pair[1])
				if err != nil {
					t.Fatal(err)
				}
				if got != tc.want {
					t.Errorf("selectorsOverlap(%v, %v) = %v, want %v", pair[0], pair[1], got, tc.want)
				}
			}
		})
	}
}
