// Package controllertest is what the controllers' unit tests share: fake clients and
// informers wired into a manager.ControllerContext as kruise-controller wires the real
// ones, and a fake server's optimistic concurrency. Only tests import it
// (hack/verify-imports.sh keeps it out of the product binaries' dependencies).
package controllertest

import (
	"strconv"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubeinformers "k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podindex"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruisefake "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned/fake"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
)

// Fake is a controller's world in a unit test: fake clients, informer factories that
// are never started (a test puts objects into their stores), and the context a
// controller's New takes.
type Fake struct {
	Kube            *kubefake.Clientset
	Kruise          *kruisefake.Clientset
	KubeInformers   kubeinformers.SharedInformerFactory
	KruiseInformers kruiseinformers.SharedInformerFactory
	Context         *manager.ControllerContext
}

// New returns a Fake whose Kruise client holds kruiseObjects, with the pod index
// kruise-controller adds to the pod informer and one worker.
func New(t *testing.T, kruiseObjects ...runtime.Object) *Fake {
	t.Helper()
	f := &Fake{
		Kube: kubefake.NewClientset(),
		// NewClientset needs a schema our apply configurations lack
		Kruise: kruisefake.NewSimpleClientset(kruiseObjects...),
	}
	f.KubeInformers = kubeinformers.NewSharedInformerFactory(f.Kube, 0)
	f.KruiseInformers = kruiseinformers.NewSharedInformerFactory(f.Kruise, 0)
	if err := podindex.Add(f.KubeInformers.Core().V1().Pods().Informer()); err != nil {
		t.Fatal(err)
	}
	f.Context = &manager.ControllerContext{
		KubeClient: f.Kube, KruiseClient: f.Kruise, KubeInformers: f.KubeInformers, KruiseInformers: f.KruiseInformers,
		Recorder: func(string) record.EventRecorder { return record.NewFakeRecorder(100) }, Workers: 1,
	}
	return f
}

// Writes counts the updates of one resource on a server with optimistic concurrency.
type Writes struct {
	// Total updates sent, and those refused with 409 Conflict.
	Total, Conflicts int
	stored           int
}

// ConflictOnStale makes the Kruise client's updates of resource (any subresource)
// behave as the server's do: an update from a resourceVersion other than the stored
// one fails with 409 Conflict, and each accepted update moves the version on. The
// stored version starts at storedVersion (the objects' resourceVersion).
func (f *Fake) ConflictOnStale(resource string, storedVersion int) *Writes {
	w := &Writes{stored: storedVersion}
	f.Kruise.PrependReactor("update", resource, func(a clienttesting.Action) (bool, runtime.Object, error) {
		out := a.(clienttesting.UpdateAction).GetObject().DeepCopyObject()
		m, err := meta.Accessor(out)
		if err != nil {
			return true, nil, err
		}
		w.Total++
		if m.GetResourceVersion() != strconv.Itoa(w.stored) {
			w.Conflicts++
			return true, nil, apierrors.NewConflict(schema.GroupResource{Group: "apps.kruise.io", Resource: resource}, m.GetName(), nil)
		}
		w.stored++
		m.SetResourceVersion(strconv.Itoa(w.stored))
		return true, out, nil
	})
	return w
}
