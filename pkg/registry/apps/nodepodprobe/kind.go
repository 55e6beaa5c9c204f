// Package nodepodprobe describes nodepodprobes.apps.kruise.io (cluster-scoped, one per
// node, v1beta1 preferred and v1alpha1, as in OpenKruise master; v1beta1 has no
// spec.podProbes[].IP, kept in an annotation): names, accessors, validation and printed
// columns. kruise-controller writes the spec, the node daemon of the node the status
// (pkg/admission/noderestriction confines it to its own node's status).
package nodepodprobe

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

// Kind describes nodepodprobes.
var Kind = resource.Kind[*apps.NodePodProbe, apps.NodePodProbeSpec, apps.NodePodProbeStatus]{
	Group:                apps.GroupName,
	Versions:             []string{"v1beta1", "v1alpha1"},
	Plural:               "nodepodprobes",
	Singular:             "nodepodprobe",
	Categories:           []string{"kruise"},
	ClusterScoped:        true,
	New:                  func() *apps.NodePodProbe { return &apps.NodePodProbe{} },
	NewList:              func() runtime.Object { return &apps.NodePodProbeList{} },
	Spec:                 func(o *apps.NodePodProbe) *apps.NodePodProbeSpec { return &o.Spec },
	Status:               func(o *apps.NodePodProbe) *apps.NodePodProbeStatus { return &o.Status },
	Validate:             validation.ValidateNodePodProbe,
	ValidateUpdate:       validation.ValidateNodePodProbeUpdate,
	ValidateStatusUpdate: validation.ValidateNodePodProbeStatusUpdate,
	Table:                TableConvertor,
}

// TableConvertor prints NAME AGE: OpenKruise's CRD declares no columns of its own.
var TableConvertor = table.Convertor{Columns: []table.Column{table.Name, table.Age}}
