// Package daemonset describes daemonsets.apps.kruise.io (Advanced DaemonSet): names,
// accessors, validation, printed columns, rollback and what deletion protection
// counts. It has no scale subresource: a DaemonSet runs one pod per eligible node.
package daemonset

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
)

// Kind describes daemonsets.apps.kruise.io. `kubectl get daemonsets` means kube's
// own DaemonSet; users reach this one as `daemon`, `ads` or daemonsets.apps.kruise.io.
var Kind = resource.Kind[*apps.DaemonSet, apps.DaemonSetSpec, apps.DaemonSetStatus]{
	Group:      apps.GroupName,
	Versions:   []string{"v1beta1", "v1alpha1"},
	Plural:     "daemonsets",
	Singular:   "daemonset",
	ShortNames: []string{"daemon", "ads"},
	Categories: []string{"kruise"},
	New:        func() *apps.DaemonSet { return &apps.DaemonSet{} },
	NewList:    func() runtime.Object { return &apps.DaemonSetList{} },
	Spec:       func(ds *apps.DaemonSet) *apps.DaemonSetSpec { return &ds.Spec },
	Status:     func(ds *apps.DaemonSet) *apps.DaemonSetStatus { return &ds.Status },
	Templates: func(ds *apps.DaemonSet) (*corev1.PodTemplateSpec, []corev1.PersistentVolumeClaim) {
		return &ds.Spec.Template, nil
	},
	Validate:             validation.ValidateDaemonSet,
	ValidateUpdate:       validation.ValidateDaemonSetUpdate,
	ValidateStatusUpdate: validation.ValidateDaemonSetStatusUpdate,
	// Both versions share the hub's update strategy shape, and the fields that differ
	// (scaleStrategy, daemonSetHash) are never reported invalid: no ErrorPaths needed.
	Table: TableConvertor,
	Active: &resource.Active[*apps.DaemonSet]{
		Field: "status.desiredNumberScheduled (or currentNumberScheduled + numberMisscheduled)",
		Count: ActivePods,
	},
	Rollback: &resource.Rollback[*apps.DaemonSet]{
		Kind: "DaemonSetRollback",
		New:  func() runtime.Object { return &apps.DaemonSetRollback{} },
		Request: func(obj runtime.Object) (string, int64, field.ErrorList) {
			r := obj.(*apps.DaemonSetRollback)
			return r.Name, r.ToRevision, validation.ValidateDaemonSetRollback(r)
		},
	},
}

// ActivePods is how many pods ds still runs or is due to run: the nodes that should
// run it, or, while pods are being removed (no node eligible any more), the nodes
// that still do.
func ActivePods(ds *apps.DaemonSet) int32 {
	return max(ds.Status.DesiredNumberScheduled, ds.Status.CurrentNumberScheduled+ds.Status.NumberMisscheduled)
}
