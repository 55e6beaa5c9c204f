package daemonset

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/controllertest"
)

// A sync that runs before the cache shows the controller's last status write does not
// write status from the older copy: on a server that write fails with 409 Conflict
// (14 of ~121 DaemonSet status writes in one bench run did, when the written object
// was thrown away).
func TestNoStatusWriteFromAnOlderCopy(t *testing.T) {
	ds := &v1beta1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "ds", UID: "ds-uid", Generation: 1, ResourceVersion: "1"},
		Spec: v1beta1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "d"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "d"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}},
			},
		},
	}
	v1beta1.SetObjectDefaults_DaemonSet(ds)
	f := controllertest.New(t, ds)
	writes := f.ConflictOnStale("daemonsets", 1)
	ctrl, err := New(context.Background(), f.Context)
	if err != nil {
		t.Fatal(err)
	}
	c := ctrl.(*Controller)
	// The cache holds ds as created, and keeps holding it: the status write's event
	// has not arrived.
	if err := f.KruiseInformers.Apps().V1beta1().DaemonSets().Informer().GetStore().Add(ds); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if _, err := c.sync(context.Background(), "ns/ds"); err != nil {
			t.Fatalf("sync %d: %v", i, err)
		}
	}
	if writes.Total != 1 || writes.Conflicts != 0 {
		t.Errorf("%d status writes, %d conflicting; want one write and the second sync to wait for the cache", writes.Total, writes.Conflicts)
	}
}
