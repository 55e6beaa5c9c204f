package kubectlkruise

import (
	"reflect"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/kubectl/pkg/scheme"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

var registerOnce sync.Once

// registerKruiseTypes teaches kubectl's own scheme the apps.kruise.io types, so that
// kubectl's commands which decode typed objects (set image, env, resources,
// serviceaccount, selector) read our workloads as Go structs, compute strategic merge
// patches from their field tags, and print them with the right kind. Only the types
// are copied, not our defaulting functions: kubectl does not default objects on the
// client (a --local or client dry-run output shows what the user wrote), and the
// server defaults anyway. v1beta1 is preferred, as the server prefers it.
func registerKruiseTypes() {
	registerOnce.Do(func() {
		ours := runtime.NewScheme()
		utilruntime.Must(v1alpha1.AddToScheme(ours))
		utilruntime.Must(v1beta1.AddToScheme(ours))
		for gvk, typ := range ours.AllKnownTypes() {
			if gvk.Group != Group {
				continue
			}
			scheme.Scheme.AddKnownTypeWithName(gvk, reflect.New(typ).Interface().(runtime.Object))
		}
		utilruntime.Must(scheme.Scheme.SetVersionPriority(v1beta1.SchemeGroupVersion, v1alpha1.SchemeGroupVersion))
	})
}
