package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the API group of Kruise workloads.
const GroupName = "apps.kruise.io"

// SchemeGroupVersion is apps.kruise.io/v1beta1.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1beta1"}

// Resource returns a group-qualified GroupResource.
func Resource(resource string) schema.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

var (
	localSchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes, addDefaultingFuncs)
	// SchemeBuilder collects the functions that add this version to a scheme.
	SchemeBuilder = &localSchemeBuilder
	// AddToScheme adds this version (types, defaults, conversions) to a scheme.
	AddToScheme = localSchemeBuilder.AddToScheme
)

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion,
		&CloneSet{}, &CloneSetList{}, &CloneSetRollback{},
		&StatefulSet{}, &StatefulSetList{}, &StatefulSetRollback{},
		&DaemonSet{}, &DaemonSetList{}, &DaemonSetRollback{},
		&BroadcastJob{}, &BroadcastJobList{},
		&AdvancedCronJob{}, &AdvancedCronJobList{},
		&UnitedDeployment{}, &UnitedDeploymentList{},
		&SidecarSet{}, &SidecarSetList{},
		&ResourceDistribution{}, &ResourceDistributionList{},
		&WorkloadSpread{}, &WorkloadSpreadList{},
		&NodeImage{}, &NodeImageList{},
		&ImagePullJob{}, &ImagePullJobList{},
		&ImageListPullJob{}, &ImageListPullJobList{},
		&ContainerRecreateRequest{}, &ContainerRecreateRequestList{},
		&PersistentPodState{}, &PersistentPodStateList{},
		&PodProbeMarker{}, &PodProbeMarkerList{},
		&EphemeralJob{}, &EphemeralJobList{},
		&NodePodProbe{}, &NodePodProbeList{},
	)
	metav1.AddToGroupVersion(scheme, SchemeGroupVersion)
	return nil
}
