package v1beta1

import (
	"k8s.io/apimachinery/pkg/conversion"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/annotationfield"
)

// NodePodProbePodIPsAnnotation carries the pods' IPs (v1alpha1 spec.podProbes[].IP,
// the address of httpGet and tcpSocket probes), which OpenKruise master's v1beta1
// has no field for: a JSON list aligned with spec.podProbes. An object read and
// written back through v1beta1 so loses nothing.
const NodePodProbePodIPsAnnotation = "nodepodprobe.kruise-native.io/pod-ips"

// Convert_apps_PodProbe_To_v1beta1_PodProbe leaves out IP;
// Convert_apps_NodePodProbe_To_v1beta1_NodePodProbe keeps it in the annotation.
func Convert_apps_PodProbe_To_v1beta1_PodProbe(in *apps.PodProbe, out *PodProbe, s conversion.Scope) error {
	return autoConvert_apps_PodProbe_To_v1beta1_PodProbe(in, out, s)
}

// Convert_apps_NodePodProbe_To_v1beta1_NodePodProbe writes the IPs into the
// annotation, only when one is set, and otherwise leaves the annotation out.
func Convert_apps_NodePodProbe_To_v1beta1_NodePodProbe(in *apps.NodePodProbe, out *NodePodProbe, s conversion.Scope) error {
	if err := autoConvert_apps_NodePodProbe_To_v1beta1_NodePodProbe(in, out, s); err != nil {
		return err
	}
	ips := make([]string, len(in.Spec.PodProbes))
	any := false
	for i, p := range in.Spec.PodProbes {
		ips[i] = p.IP
		any = any || p.IP != ""
	}
	if !any {
		// The key is the server's: a value a v1alpha1 client set is not stored, or
		// every later read of the object would fail to decode it.
		out.Annotations = annotationfield.Without(out.Annotations, NodePodProbePodIPsAnnotation)
		return nil
	}
	annotations, err := annotationfield.SetJSON(out.Annotations, NodePodProbePodIPsAnnotation, ips)
	if err != nil {
		return err
	}
	out.Annotations = annotations
	return nil
}

// Convert_v1beta1_NodePodProbe_To_apps_NodePodProbe reads the IPs back and drops the
// annotation. A list whose length is not spec.podProbes' (a v1beta1 writer changed
// the pods) is dropped: kruise-controller writes the IPs again. One that does not
// parse is the client's error, answered 422 at the annotation.
func Convert_v1beta1_NodePodProbe_To_apps_NodePodProbe(in *NodePodProbe, out *apps.NodePodProbe, s conversion.Scope) error {
	if err := autoConvert_v1beta1_NodePodProbe_To_apps_NodePodProbe(in, out, s); err != nil {
		return err
	}
	var ips []string
	if ok, err := annotationfield.GetJSON(in.Annotations, NodePodProbePodIPsAnnotation, apps.Kind("NodePodProbe"), in.Name, &ips); !ok || err != nil {
		return err
	}
	if len(ips) == len(out.Spec.PodProbes) {
		// The generated conversion may share the slice with in: write a copy.
		probes := make([]apps.PodProbe, len(out.Spec.PodProbes))
		copy(probes, out.Spec.PodProbes)
		for i := range probes {
			probes[i].IP = ips[i]
		}
		out.Spec.PodProbes = probes
	}
	out.Annotations = annotationfield.Without(in.Annotations, NodePodProbePodIPsAnnotation)
	return nil
}
