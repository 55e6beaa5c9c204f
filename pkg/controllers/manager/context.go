package manager

import (
	"k8s.io/client-go/dynamic"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/record"
	"k8s.io/component-base/featuregate"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/features"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
)

// ControllerContext is what every controller is built from: shared clients and
// informers (one watch per resource for the whole process) and an event recorder.
type ControllerContext struct {
	KubeClient   kubernetes.Interface
	KruiseClient kruiseclient.Interface
	// Dynamic and Metadata reach resources of any kind (deletion protection watches
	// built-in kinds by label and lists a CRD's objects).
	Dynamic         dynamic.Interface
	Metadata        metadata.Interface
	KubeInformers   kubeinformers.SharedInformerFactory
	KruiseInformers kruiseinformers.SharedInformerFactory
	Recorder        func(component string) record.EventRecorder
	Workers         int
	// FeatureGate is --feature-gates (pkg/features lists the gates).
	FeatureGate featuregate.FeatureGate
}

// Enabled reports whether a feature gate is on (its default when the context has no
// gates, as in unit tests).
func (cc *ControllerContext) Enabled(f featuregate.Feature) bool {
	return features.Enabled(cc.FeatureGate, f)
}

// InPlaceOptions is what the gates let an in-place update change beyond images and
// metadata, for every workload that updates pods in place.
func (cc *ControllerContext) InPlaceOptions() inplaceupdate.Options {
	return inplaceupdate.Options{VerticalScaling: cc.Enabled(features.InPlaceWorkloadVerticalScaling)}
}
