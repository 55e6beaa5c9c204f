// Package containerrecreaterequest describes containerrecreaterequests.apps.kruise.io: names, accessors, validation and printed columns.
package containerrecreaterequest

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

// Kind describes containerrecreaterequests.
var Kind = resource.Kind[*apps.ContainerRecreateRequest, apps.ContainerRecreateRequestSpec, apps.ContainerRecreateRequestStatus]{
	Group:                apps.GroupName,
	Versions:             []string{"v1beta1", "v1alpha1"},
	Plural:               "containerrecreaterequests",
	Singular:             "containerrecreaterequest",
	ShortNames:           []string{"crr"},
	Categories:           []string{"kruise"},
	New:                  func() *apps.ContainerRecreateRequest { return &apps.ContainerRecreateRequest{} },
	NewList:              func() runtime.Object { return &apps.ContainerRecreateRequestList{} },
	Spec:                 func(o *apps.ContainerRecreateRequest) *apps.ContainerRecreateRequestSpec { return &o.Spec },
	Status:               func(o *apps.ContainerRecreateRequest) *apps.ContainerRecreateRequestStatus { return &o.Status },
	Validate:             validation.ValidateContainerRecreateRequest,
	ValidateUpdate:       validation.ValidateContainerRecreateRequestUpdate,
	ValidateStatusUpdate: validation.ValidateContainerRecreateRequestStatusUpdate,
	Table:                TableConvertor,
}

func crr(obj runtime.Object) *apps.ContainerRecreateRequest {
	return obj.(*apps.ContainerRecreateRequest)
}

// nodeNameLabel is where the admission plugin records the pod's node.
const nodeNameLabel = "crr.apps.kruise.io/node-name"

// TableConvertor prints OpenKruise's ContainerRecreateRequest columns: PHASE POD NODE AGE.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.String("PHASE", "Phase of this ContainerRecreateRequest.", func(o runtime.Object) string { return string(crr(o).Status.Phase) }),
	table.String("POD", "Pod name of this ContainerRecreateRequest.", func(o runtime.Object) string { return crr(o).Spec.PodName }),
	table.String("NODE", "Node name of this ContainerRecreateRequest.", func(o runtime.Object) string { return crr(o).Labels[nodeNameLabel] }),
	table.Age,
}}
