package podworkload

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubeinformers "k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podindex"
)

// newTestBase is a Base over ConfigMaps standing in for workloads, their informer
// holding cached (not started: the test fills its store).
func newTestBase(t *testing.T, cached ...*corev1.ConfigMap) *Base[*corev1.ConfigMap, map[string]string] {
	t.Helper()
	kube := kubefake.NewClientset()
	inf := kubeinformers.NewSharedInformerFactory(kube, 0)
	pods := inf.Core().V1().Pods().Informer()
	if err := podindex.Add(pods); err != nil {
		t.Fatal(err)
	}
	workloads := inf.Core().V1().ConfigMaps().Informer()
	for _, o := range cached {
		if err := workloads.GetStore().Add(o); err != nil {
			t.Fatal(err)
		}
	}
	b, err := NewBase[*corev1.ConfigMap, map[string]string](kube, record.NewFakeRecorder(10), &fakeStatusAPI{},
		Wiring{Config: Config{Name: "test-controller", Kind: testKind, Text: text{}}, Workloads: workloads, Pods: pods},
		func(context.Context, string) (time.Duration, error) { return 0, nil })
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Get hands a sync the cached workload only when there is something to do with it:
// not when it is gone (its expectations dropped), being deleted, or older than the
// last status written.
func TestBaseGet(t *testing.T) {
	deleting := stored(nil)
	deleting.Name, deleting.UID, deleting.DeletionTimestamp = "gone-soon", "gone-soon-uid", &metav1.Time{}
	tests := []struct {
		name      string
		key       string
		statusRV  string // the status write's resourceVersion, "" none
		wantOK    bool
		wantScale bool // the key's scale expectations survive
	}{
		{name: "cached and current", key: "ns/cs", wantOK: true, wantScale: true},
		{name: "gone: expectations dropped", key: "ns/other"},
		{name: "being deleted", key: "ns/gone-soon", wantScale: true},
		{name: "older than the last status write", key: "ns/cs", statusRV: "11", wantScale: true},
		{name: "as new as the last status write", key: "ns/cs", statusRV: "10", wantOK: true, wantScale: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newTestBase(t, stored(nil), deleting)
			b.Pods.Scale.Expect(tt.key, expectations.Create, "p")
			if tt.statusRV != "" {
				written := stored(nil)
				written.ResourceVersion = tt.statusRV
				b.Status.written.Expect(written)
			}
			got, ok, err := b.Get(context.Background(), tt.key)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tt.wantOK || (got != nil) != tt.wantOK {
				t.Errorf("Get = %v, %t; want ok %t", got, ok, tt.wantOK)
			}
			if pending := !b.Pods.Scale.Satisfied(tt.key); pending != tt.wantScale {
				t.Errorf("scale expectations pending %t, want %t", pending, tt.wantScale)
			}
		})
	}
}

// A deleted workload's expectations go, whether the informer hands over the object or
// a tombstone.
func TestBaseOnDelete(t *testing.T) {
	for _, tomb := range []bool{false, true} {
		b := newTestBase(t)
		o := stored(nil)
		b.Pods.Scale.Expect("ns/cs", expectations.Create, "p")
		written := o.DeepCopy()
		written.ResourceVersion = "11"
		b.Status.written.Expect(written)
		var obj interface{} = o
		if tomb {
			obj = cache.DeletedFinalStateUnknown{Key: "ns/cs", Obj: o}
		}
		b.onDelete(obj)
		if !b.Pods.Scale.Satisfied("ns/cs") || !b.Status.Current(context.Background(), o) {
			t.Errorf("tombstone %t: expectations of the deleted workload kept", tomb)
		}
	}
}
