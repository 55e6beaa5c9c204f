package daemonset

import (
	"context"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kubeinformers "k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podindex"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruisefake "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned/fake"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
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
	kube := kubefake.NewClientset()
	kruise := kruisefake.NewSimpleClientset(ds) // NewClientset needs a schema our apply configurations lack
	// The server's side of optimistic concurrency: a status update from an older
	// resourceVersion conflicts, and each write moves the version on.
	stored, writes, conflicts := 1, 0, 0
	kruise.PrependReactor("update", "daemonsets", func(a clienttesting.Action) (bool, runtime.Object, error) {
		out := a.(clienttesting.UpdateAction).GetObject().(*v1beta1.DaemonSet).DeepCopy()
		writes++
		if out.ResourceVersion != strconv.Itoa(stored) {
			conflicts++
			return true, nil, apierrors.NewConflict(v1beta1.Resource("daemonsets"), out.Name, nil)
		}
		stored++
		out.ResourceVersion = strconv.Itoa(stored)
		return true, out, nil
	})
	kubeInf := kubeinformers.NewSharedInformerFactory(kube, 0)
	kruiseInf := kruiseinformers.NewSharedInformerFactory(kruise, 0)
	if err := podindex.Add(kubeInf.Core().V1().Pods().Informer()); err != nil {
		t.Fatal(err)
	}
	ctrl, err := New(context.Background(), &manager.ControllerContext{
		KubeClient: kube, KruiseClient: kruise, KubeInformers: kubeInf, KruiseInformers: kruiseInf,
		Recorder: func(string) record.EventRecorder { return record.NewFakeRecorder(100) }, Workers: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	c := ctrl.(*Controller)
	// The cache holds ds as created, and keeps holding it: the status write's event
	// has not arrived.
	if err := kruiseInf.Apps().V1beta1().DaemonSets().Informer().GetStore().Add(ds); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if _, err := c.sync(context.Background(), "ns/ds"); err != nil {
			t.Fatalf("sync %d: %v", i, err)
		}
	}
	if writes != 1 || conflicts != 0 {
		t.Errorf("%d status writes, %d conflicting; want one write and the second sync to wait for the cache", writes, conflicts)
	}
}
