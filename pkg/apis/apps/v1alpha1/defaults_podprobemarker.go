package v1alpha1

import "github.com/kruise-native/kruise-native/pkg/apis/apps/defaulting"

// SetDefaults_PodProbeMarker gives every probe kube's probe defaults, as OpenKruise's
// webhook does.
func SetDefaults_PodProbeMarker(obj *PodProbeMarker) {
	for i := range obj.Spec.Probes {
		defaulting.Probe(&obj.Spec.Probes[i].Probe.Probe)
	}
}

// SetDefaults_NodePodProbe gives every probe kube's probe defaults (the controller
// copies them already defaulted; a NodePodProbe written by hand reads back the same).
func SetDefaults_NodePodProbe(obj *NodePodProbe) {
	for i := range obj.Spec.PodProbes {
		for j := range obj.Spec.PodProbes[i].Probes {
			defaulting.Probe(&obj.Spec.PodProbes[i].Probes[j].Probe.Probe)
		}
	}
}
