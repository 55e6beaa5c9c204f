package defaulting

import (
	corev1 "k8s.io/api/core/v1"
	k8scorev1 "k8s.io/kubernetes/pkg/apis/core/v1"
)

// Probe defaults a probe in place as kube defaults a container's probes (timeout 1s,
// period 10s, success threshold 1, failure threshold 3; httpGet path "/" and scheme
// HTTP), so a PodProbeMarker's probe runs with the numbers a kubelet would use.
func Probe(p *corev1.Probe) {
	k8scorev1.SetDefaults_Probe(p)
	if p.HTTPGet != nil {
		k8scorev1.SetDefaults_HTTPGetAction(p.HTTPGet)
	}
}
