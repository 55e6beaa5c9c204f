package cloneset

import (
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// newScheme converts between the v1beta1 objects the informer holds and the hub type
// the controller reasons about, so one code path serves every served version.
func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(apps.AddToScheme(s))
	utilruntime.Must(v1beta1.AddToScheme(s))
	return s
}
