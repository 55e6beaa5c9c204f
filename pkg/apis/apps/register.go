package apps

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the API group of Kruise workloads.
const GroupName = "apps.kruise.io"

// SchemeGroupVersion is the internal version used to register the hub types.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: runtime.APIVersionInternal}

// Kind returns a group-qualified GroupKind.
func Kind(kind string) schema.GroupKind { return SchemeGroupVersion.WithKind(kind).GroupKind() }

// Resource returns a group-qualified GroupResource.
func Resource(resource string) schema.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

var (
	// SchemeBuilder collects the functions that add the internal types to a scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds the internal types to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion,
		&CloneSet{}, &CloneSetList{}, &CloneSetRollback{},
		&StatefulSet{}, &StatefulSetList{}, &StatefulSetRollback{},
		&DaemonSet{}, &DaemonSetList{}, &DaemonSetRollback{},
		&BroadcastJob{}, &BroadcastJobList{},
		&AdvancedCronJob{}, &AdvancedCronJobList{},
		&UnitedDeployment{}, &UnitedDeploymentList{},
		&NodeImage{}, &NodeImageList{},
		&ImagePullJob{}, &ImagePullJobList{},
		&ImageListPullJob{}, &ImageListPullJobList{},
		&ContainerRecreateRequest{}, &ContainerRecreateRequestList{},
		&SidecarSet{}, &SidecarSetList{},
		&ResourceDistribution{}, &ResourceDistributionList{},
		&WorkloadSpread{}, &WorkloadSpreadList{},
		&PodProbeMarker{}, &PodProbeMarkerList{},
		&PersistentPodState{}, &PersistentPodStateList{},
		&NodePodProbe{}, &NodePodProbeList{},
		&EphemeralJob{}, &EphemeralJobList{},
	)
	return nil
}
