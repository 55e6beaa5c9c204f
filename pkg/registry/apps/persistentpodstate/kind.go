// Package persistentpodstate describes persistentpodstates.apps.kruise.io (namespaced,
// v1beta1 preferred and v1alpha1, as in OpenKruise master): names, accessors,
// validation and printed columns. kruise-controller writes the status (and creates the
// objects workload annotations ask for); kruise-apiserver's pod webhook reads it.
package persistentpodstate

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

// Kind describes persistentpodstates.
var Kind = resource.Kind[*apps.PersistentPodState, apps.PersistentPodStateSpec, apps.PersistentPodStateStatus]{
	Group:                apps.GroupName,
	Versions:             []string{"v1beta1", "v1alpha1"},
	Plural:               "persistentpodstates",
	Singular:             "persistentpodstate",
	Categories:           []string{"kruise"},
	New:                  func() *apps.PersistentPodState { return &apps.PersistentPodState{} },
	NewList:              func() runtime.Object { return &apps.PersistentPodStateList{} },
	Spec:                 func(o *apps.PersistentPodState) *apps.PersistentPodStateSpec { return &o.Spec },
	Status:               func(o *apps.PersistentPodState) *apps.PersistentPodStateStatus { return &o.Status },
	Validate:             validation.ValidatePersistentPodState,
	ValidateUpdate:       validation.ValidatePersistentPodStateUpdate,
	ValidateStatusUpdate: validation.ValidatePersistentPodStateStatusUpdate,
	ErrorPaths:           errorPaths,
	Table:                TableConvertor,
}

// TableConvertor prints NAME AGE: OpenKruise's CRD declares no columns of its own.
var TableConvertor = table.Convertor{Columns: []table.Column{table.Name, table.Age}}

// errorPaths names v1beta1's keys where the hub (v1alpha1-shaped) says nodeTopologyKeys.
func errorPaths(version string, errs field.ErrorList) field.ErrorList {
	if version != "v1beta1" {
		return errs
	}
	out := make(field.ErrorList, 0, len(errs))
	for _, e := range errs {
		e := *e
		e.Field = strings.ReplaceAll(e.Field, ".nodeTopologyKeys", ".keys")
		out = append(out, &e)
	}
	return out
}
