package deletionprotection

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestDeletionBegan(t *testing.T) {
	live := &unstructured.Unstructured{Object: map[string]interface{}{}}
	deleting := live.DeepCopy()
	now := metav1.Unix(1000, 0)
	deleting.SetDeletionTimestamp(&now)
	cases := []struct {
		name     string
		old, cur *unstructured.Unstructured
		want     bool
	}{
		{"update of a live object", live, live, false},
		{"deletionTimestamp appears", live, deleting, true},
		{"gone without a deletionTimestamp", live, nil, true},
		{"update while being deleted", deleting, deleting, false},
		{"gone after its deletionTimestamp", deleting, nil, false},
		{"added", nil, live, false},
	}
	for _, tc := range cases {
		if got := deletionBegan(tc.old, tc.cur); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
