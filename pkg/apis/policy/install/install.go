// Package install registers every version of policy.kruise.io into a scheme.
package install

import (
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/policy"
	"github.com/kruise-native/kruise-native/pkg/apis/policy/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
)

// Install adds the internal types and every served version, with v1beta1 preferred
// (and stored), as OpenKruise since v1.9.
func Install(scheme *runtime.Scheme) {
	utilruntime.Must(policy.AddToScheme(scheme))
	utilruntime.Must(v1beta1.AddToScheme(scheme))
	utilruntime.Must(v1alpha1.AddToScheme(scheme))
	utilruntime.Must(scheme.SetVersionPriority(v1beta1.SchemeGroupVersion, v1alpha1.SchemeGroupVersion))
}
