package scheme

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	autoscalinginstall "k8s.io/kubernetes/pkg/apis/autoscaling/install"

	appsinstall "github.com/kruise-native/kruise-native/pkg/apis/apps/install"
	policyinstall "github.com/kruise-native/kruise-native/pkg/apis/policy/install"
)

// NewScheme builds the scheme kruise-apiserver serves: every apps.kruise.io and
// policy.kruise.io version,
// autoscaling (for the scale subresource), core/v1 Secrets (served as they are, never
// converted, by nodeimages/pullsecrets) and the unversioned meta types. It is built
// explicitly rather than through init() so tests can build as many as they like.
func NewScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	appsinstall.Install(s)
	policyinstall.Install(s)
	autoscalinginstall.Install(s)
	s.AddKnownTypes(corev1.SchemeGroupVersion, &corev1.Secret{}, &corev1.SecretList{})

	// Options types (ListOptions, DeleteOptions...) and the unversioned discovery types.
	metav1.AddToGroupVersion(s, schema.GroupVersion{Version: "v1"})
	s.AddUnversionedTypes(schema.GroupVersion{Group: "", Version: "v1"},
		&metav1.Status{},
		&metav1.APIVersions{},
		&metav1.APIGroupList{},
		&metav1.APIGroup{},
		&metav1.APIResourceList{},
	)
	return s
}

// Scheme is the scheme of the running server; Codecs encodes and decodes with it.
var (
	Scheme = NewScheme()
	Codecs = serializer.NewCodecFactory(Scheme)
)
