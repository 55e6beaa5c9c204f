package podworkload

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	kubeinformers "k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podindex"
)

var testKind = schema.GroupVersionKind{Group: "apps.kruise.io", Version: "v1beta1", Kind: "CloneSet"}

// owner is the workload "ns/cs" of the tests: any object with metadata will do.
func owner(deleting bool) *corev1.ConfigMap {
	o := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cs", Namespace: "ns", UID: "cs-uid"}}
	if deleting {
		o.DeletionTimestamp = &metav1.Time{}
	}
	return o
}

type text struct{}

func (text) PodCreated(_, pod string) string { return "created " + pod }
func (text) PodCreateFailed(_, pod string, err error) string {
	return fmt.Sprintf("create %s: %v", pod, err)
}
func (text) PodDeleted(_, pod string) string { return "deleted " + pod }
func (text) PodDeleteFailed(_, pod string, err error) string {
	return fmt.Sprintf("delete %s: %v", pod, err)
}
func (text) ClaimCreated(_, claim, pod string) string { return "" }
func (text) ClaimCreateFailed(_, claim, pod string, err error) string {
	return fmt.Sprintf("claim %s of %s: %v", claim, pod, err)
}

type fixture struct {
	t        *testing.T
	kube     *kubefake.Clientset
	c        *Control
	recorder *record.FakeRecorder
	fresh    metav1.Object
	reads    int
}

// newFixture builds a Control on a fake API holding objs, its pod cache showing them.
func newFixture(t *testing.T, objs ...runtime.Object) *fixture {
	t.Helper()
	f := &fixture{t: t, kube: kubefake.NewClientset(objs...), recorder: record.NewFakeRecorder(100)}
	inf := kubeinformers.NewSharedInformerFactory(f.kube, 0)
	pods := inf.Core().V1().Pods().Informer()
	if err := podindex.Add(pods); err != nil {
		t.Fatal(err)
	}
	c, err := New(f.kube, f.recorder, pods, inf.Apps().V1().ControllerRevisions().Informer(), Config{
		Name: "test-controller", Kind: testKind, Text: text{},
		Fresh: func(context.Context, string, string) (metav1.Object, error) {
			f.reads++
			if f.fresh == nil {
				return nil, fmt.Errorf("not found")
			}
			return f.fresh, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		if p, ok := o.(*corev1.Pod); ok {
			if err := pods.GetStore().Add(p); err != nil {
				t.Fatal(err)
			}
		}
	}
	f.c = c
	return f
}

// writes are the fake API's write actions, as "verb resource name".
func (f *fixture) writes() []string {
	var out []string
	for _, a := range f.kube.Actions() {
		switch a := a.(type) {
		case clienttesting.CreateAction:
			out = append(out, fmt.Sprintf("create %s %s", a.GetResource().Resource, a.GetObject().(metav1.Object).GetName()))
		case clienttesting.DeleteAction:
			out = append(out, fmt.Sprintf("delete %s %s", a.GetResource().Resource, a.GetName()))
		case clienttesting.PatchAction:
			out = append(out, fmt.Sprintf("patch %s %s", a.GetResource().Resource, a.GetName()))
		}
	}
	return out
}

func (f *fixture) events() []string {
	var out []string
	for {
		select {
		case e := <-f.recorder.Events:
			out = append(out, e)
		default:
			return out
		}
	}
}

// testPod is a pod of namespace ns controlled by controller (nil: an orphan).
func testPod(name string, labels map[string]string, controller *metav1.OwnerReference) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + name), Labels: labels, ResourceVersion: "1"}}
	if controller != nil {
		p.OwnerReferences = []metav1.OwnerReference{*controller}
	}
	return p
}

// controlledBy is a controller reference to a CloneSet of that name and uid.
func controlledBy(name, uid string) *metav1.OwnerReference {
	return &metav1.OwnerReference{APIVersion: "apps.kruise.io/v1beta1", Kind: "CloneSet", Name: name, UID: types.UID(uid), Controller: ptr.To(true)}
}
