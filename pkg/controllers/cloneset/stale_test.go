package cloneset

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/controllertest"
)

// A sync that runs before the cache shows the controller's last status write does not
// write status from the older copy: on a server that write fails with 409 Conflict
// (it did, when the written object was thrown away).
func TestNoStatusWriteFromAnOlderCopy(t *testing.T) {
	w := &v1beta1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w", UID: "w-uid", Generation: 1, ResourceVersion: "1"},
		Spec: v1beta1.CloneSetSpec{
			Replicas: ptr.To[int32](0),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "d"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "d"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}},
			},
		},
	}
	v1beta1.SetObjectDefaults_CloneSet(w)
	f := controllertest.New(t, w)
	writes := f.ConflictOnStale("clonesets", 1)
	ctrl, err := New(context.Background(), f.Context)
	if err != nil {
		t.Fatal(err)
	}
	c := ctrl.(*Controller)
	// The cache holds w as created, and keeps holding it: the status write's event
	// has not arrived.
	if err := f.KruiseInformers.Apps().V1beta1().CloneSets().Informer().GetStore().Add(w); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if _, err := c.sync(context.Background(), "ns/w"); err != nil {
			t.Fatalf("sync %d: %v", i, err)
		}
	}
	if writes.Total != 1 || writes.Conflicts != 0 {
		t.Errorf("%d status writes, %d conflicting; want one write and the second sync to wait for the cache", writes.Total, writes.Conflicts)
	}
}
