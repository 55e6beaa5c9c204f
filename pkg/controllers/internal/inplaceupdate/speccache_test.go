package inplaceupdate

import (
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/controller/history"

	"github.com/kruise-native/kruise-native/pkg/revisiondata"
)

func revisionOf(t *testing.T, name, image string) *appsv1.ControllerRevision {
	t.Helper()
	tmpl := &corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: image}}}}
	data, err := revisiondata.Encode(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	owner := &metav1.ObjectMeta{Name: "owner", Namespace: "ns", UID: "u"}
	rev, err := history.NewControllerRevision(owner, corev1.SchemeGroupVersion.WithKind("Pod"), nil, runtime.RawExtension{Raw: data}, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	rev.Name = name
	return rev
}

// Pods of one sync are updated in parallel; they share the cache, and each revision is
// decoded and each spec computed once.
func TestSpecCacheConcurrent(t *testing.T) {
	oldRev, newRev := revisionOf(t, "old", "nginx:1"), revisionOf(t, "new", "nginx:2")
	var c SpecCache
	var wg sync.WaitGroup
	specs := make([]*UpdateSpec, 32)
	for i := range specs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := c.Spec(oldRev, newRev)
			if err != nil {
				t.Error(err)
			}
			specs[i] = s
		}()
	}
	wg.Wait()
	for _, s := range specs {
		if s == nil || s != specs[0] {
			t.Fatalf("specs differ or are nil: in-place spec must be computed once and shared")
		}
	}
	if got := specs[0].ContainerImages["app"]; got != "nginx:2" {
		t.Fatalf("spec changes app to %q, want nginx:2", got)
	}
}
