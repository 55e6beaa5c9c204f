package podunavailablebudget

import (
	"context"
	"sort"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	policyv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
)

type recordingPatcher struct {
	mu      sync.Mutex
	patched map[string]string
}

func (r *recordingPatcher) Patch(_ context.Context, _, name string, _ types.PatchType, data []byte, _ ...string) (*corev1.Pod, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.patched[name] = string(data)
	return &corev1.Pod{}, nil
}

// Guarded pods without kruise.io/related-pub get the budget's name; pods that already
// name a budget, and pods being deleted, are left alone.
func TestMarkRelated(t *testing.T) {
	rec := &recordingPatcher{patched: map[string]string{}}
	c := &Controller{podPatcher: rec}
	named := pod("named", "", true)
	named.Annotations = map[string]string{RelatedPubAnnotation: "other"}
	deleting := pod("deleting", "", true)
	deleting.DeletionTimestamp = &metav1.Time{}
	pods := []*corev1.Pod{pod("a", "", true), pod("b", "", false), named, deleting}
	pub := &policyv1beta1.PodUnavailableBudget{ObjectMeta: metav1.ObjectMeta{Name: "web-pub", Namespace: "ns"}}
	if err := c.markRelated(context.Background(), pub, pods); err != nil {
		t.Fatal(err)
	}
	var names []string
	for n, patch := range rec.patched {
		names = append(names, n)
		if patch != `{"metadata":{"annotations":{"kruise.io/related-pub":"web-pub"}}}` {
			t.Errorf("patch of %s: %s", n, patch)
		}
	}
	sort.Strings(names)
	if len(names) != 2 || names[0] != "a" || names[1] != "b" {
		t.Errorf("patched %v, want [a b]", names)
	}
}
