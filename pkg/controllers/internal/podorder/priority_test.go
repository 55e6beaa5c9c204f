package podorder

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

func weights(terms ...pub.UpdatePriorityWeightTerm) *pub.UpdatePriorityStrategy {
	return &pub.UpdatePriorityStrategy{WeightPriority: terms}
}

func weight(w int32, matchLabels map[string]string) pub.UpdatePriorityWeightTerm {
	return pub.UpdatePriorityWeightTerm{Weight: w, MatchSelector: metav1.LabelSelector{MatchLabels: matchLabels}}
}

func orders(keys ...string) *pub.UpdatePriorityStrategy {
	s := &pub.UpdatePriorityStrategy{}
	for _, k := range keys {
		s.OrderPriority = append(s.OrderPriority, pub.UpdatePriorityOrderTerm{OrderedKey: k})
	}
	return s
}

func TestPriorityWeight(t *testing.T) {
	// The documented example: weight 50 for key1=val1, plus a second term.
	doc := weights(weight(50, map[string]string{"key1": "val1"}), weight(30, map[string]string{"key2": "val2"}))
	expr := weights(pub.UpdatePriorityWeightTerm{Weight: 7, MatchSelector: metav1.LabelSelector{
		MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "zone", Operator: metav1.LabelSelectorOpIn, Values: []string{"a", "b"}}},
	}})
	invalid := weights(
		pub.UpdatePriorityWeightTerm{Weight: 40, MatchSelector: metav1.LabelSelector{
			MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "k", Operator: "Bogus"}},
		}},
		weight(5, map[string]string{"k": "v"}),
	)
	tests := []struct {
		name     string
		strategy *pub.UpdatePriorityStrategy
		labels   map[string]string
		want     int64
	}{
		{"nil strategy", nil, map[string]string{"key1": "val1"}, 0},
		{"empty strategy", &pub.UpdatePriorityStrategy{}, map[string]string{"key1": "val1"}, 0},
		{"doc: key1=val1 weighs 50", doc, map[string]string{"key1": "val1"}, 50},
		{"doc: other value", doc, map[string]string{"key1": "other"}, 0},
		{"doc: no labels", doc, nil, 0},
		{"doc: both terms add up", doc, map[string]string{"key1": "val1", "key2": "val2"}, 80},
		{"doc: second term only", doc, map[string]string{"key2": "val2"}, 30},
		{"match expressions", expr, map[string]string{"zone": "b"}, 7},
		{"match expressions, no match", expr, map[string]string{"zone": "c"}, 0},
		{"an invalid selector counts for nothing", invalid, map[string]string{"k": "v"}, 5},
		{"weights win over order when both are set", &pub.UpdatePriorityStrategy{
			WeightPriority: []pub.UpdatePriorityWeightTerm{weight(9, map[string]string{"k": "v"})},
			OrderPriority:  []pub.UpdatePriorityOrderTerm{{OrderedKey: "rank"}},
		}, map[string]string{"k": "v", "rank": "100"}, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Priority(tt.strategy, tt.labels); got != tt.want {
				t.Errorf("Priority = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestPriorityOrder compares pairs: a must rank strictly above b (or equal).
func TestPriorityOrder(t *testing.T) {
	one := orders("some-priority")
	two := orders("key1", "key2")
	tests := []struct {
		name     string
		strategy *pub.UpdatePriorityStrategy
		a, b     map[string]string
		equal    bool
	}{
		{"doc: higher some-priority first", one, map[string]string{"some-priority": "10"}, map[string]string{"some-priority": "5"}, false},
		{"doc: the integer at the end of the value", one, map[string]string{"some-priority": "sts-10"}, map[string]string{"some-priority": "sts-9"}, false},
		{"prefix does not matter", one, map[string]string{"some-priority": "a-10"}, map[string]string{"some-priority": "zzz-9"}, false},
		{"leading zeros", one, map[string]string{"some-priority": "010"}, map[string]string{"some-priority": "9"}, false},
		{"same value", one, map[string]string{"some-priority": "o-10"}, map[string]string{"some-priority": "10"}, true},
		{"no trailing digits counts as 0", one, map[string]string{"some-priority": "1"}, map[string]string{"some-priority": "10a"}, false},
		{"non-integer equals 0", one, map[string]string{"some-priority": "0"}, map[string]string{"some-priority": "abc"}, true},
		{"present beats missing", one, map[string]string{"some-priority": "abc"}, map[string]string{"other": "100"}, false},
		{"first key beats second key whatever the values", two, map[string]string{"key1": "1"}, map[string]string{"key2": "1000000"}, false},
		{"first key decides when both are present", two, map[string]string{"key1": "2", "key2": "0"}, map[string]string{"key1": "1", "key2": "99"}, false},
		{"second key orders pods without the first", two, map[string]string{"key2": "o-20"}, map[string]string{"key2": "o-10"}, false},
		{"second key beats none", two, map[string]string{"key2": "0"}, nil, false},
		{"huge values are capped and tie", one, map[string]string{"some-priority": "99999999999999999999999"}, map[string]string{"some-priority": "1000000000000000"}, true},
		{"cap is above every 14-digit value", one, map[string]string{"some-priority": "1000000000000000"}, map[string]string{"some-priority": "99999999999999"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pa, pb := Priority(tt.strategy, tt.a), Priority(tt.strategy, tt.b)
			if tt.equal && pa != pb {
				t.Errorf("Priority(a)=%d != Priority(b)=%d", pa, pb)
			}
			if !tt.equal && pa <= pb {
				t.Errorf("Priority(a)=%d, want above Priority(b)=%d", pa, pb)
			}
		})
	}
}

func TestPriorityOrderMissingIsZero(t *testing.T) {
	if got := Priority(orders("key1", "key2"), map[string]string{"other": "5"}); got != 0 {
		t.Errorf("Priority = %d, want 0", got)
	}
	if got := Priority(orders("key1"), map[string]string{"key1": "7"}); got <= 0 {
		t.Errorf("Priority = %d, want > 0", got)
	}
}

func TestOrderValue(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"", 0},
		{"5", 5},
		{"sts-10", 10},
		{"10a", 0},
		{"a1b2", 2},
		{"-5", 5},
		{"007", 7},
		{"281474976710655", MaxOrderValue},
		{"281474976710656", MaxOrderValue},
		{"123456789012345678901234567890", MaxOrderValue},
	}
	for _, tt := range tests {
		if got := orderValue(tt.in); got != tt.want {
			t.Errorf("orderValue(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
