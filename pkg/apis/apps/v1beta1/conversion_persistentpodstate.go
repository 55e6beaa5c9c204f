package v1beta1

import (
	"k8s.io/apimachinery/pkg/conversion"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// v1beta1 renamed NodeTopologyTerm.nodeTopologyKeys to keys (OpenKruise master); the
// hub keeps v1alpha1's name, so the list moves between the two names here.

// Convert_v1beta1_NodeTopologyTerm_To_apps_NodeTopologyTerm reads keys.
func Convert_v1beta1_NodeTopologyTerm_To_apps_NodeTopologyTerm(in *NodeTopologyTerm, out *apps.NodeTopologyTerm, _ conversion.Scope) error {
	out.NodeTopologyKeys = in.Keys
	return nil
}

// Convert_apps_NodeTopologyTerm_To_v1beta1_NodeTopologyTerm writes keys.
func Convert_apps_NodeTopologyTerm_To_v1beta1_NodeTopologyTerm(in *apps.NodeTopologyTerm, out *NodeTopologyTerm, _ conversion.Scope) error {
	out.Keys = in.NodeTopologyKeys
	return nil
}
