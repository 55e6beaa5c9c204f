// Package deletionprotection implements OpenKruise's deletion protection for Kruise
// workloads in-process: an object labelled policy.kruise.io/delete-protection=Always
// cannot be deleted, and one labelled Cascading cannot be deleted while it still asks
// for pods.
package deletionprotection

import (
	"context"
	"fmt"
	"io"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// PluginName is the name under --enable-admission-plugins / --disable-admission-plugins.
const PluginName = "KruiseDeletionProtection"

// Register adds the plugin to a plugin registry.
func Register(plugins *admission.Plugins) {
	plugins.Register(PluginName, func(io.Reader) (admission.Interface, error) {
		return New(), nil
	})
}

// Plugin rejects deletions the protection label forbids.
type Plugin struct {
	*admission.Handler
}

var _ admission.ValidationInterface = &Plugin{}

// New returns the plugin; it only acts on DELETE.
func New() *Plugin {
	return &Plugin{Handler: admission.NewHandler(admission.Delete)}
}

// Validate checks one deletion (also each item of a deletecollection).
func (p *Plugin) Validate(_ context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if a.GetSubresource() != "" {
		return nil
	}
	obj := a.GetOldObject()
	if obj == nil {
		return nil
	}
	accessor, err := meta.Accessor(obj)
	if err != nil {
		return nil
	}
	// Name the object from itself: a deletecollection (how namespace deletion removes
	// our objects) runs this per item with no name in the attributes, and kube's
	// admission.NewForbidden would then call it "Unknown".
	forbidden := func(err error) error {
		return apierrors.NewForbidden(a.GetResource().GroupResource(), accessor.GetName(), err)
	}
	switch mode := accessor.GetLabels()[pub.DeletionProtectionKey]; mode {
	case pub.DeletionProtectionTypeAlways:
		return forbidden(fmt.Errorf("%s=%s forbids deleting it; remove the label first",
			pub.DeletionProtectionKey, mode))
	case pub.DeletionProtectionTypeCascading:
		if replicas, ok := activeReplicas(obj); ok && replicas > 0 {
			return forbidden(fmt.Errorf("%s=%s forbids deleting it while spec.replicas is %d; scale it to 0 first",
				pub.DeletionProtectionKey, mode, replicas))
		}
	}
	return nil
}

// activeReplicas is the replica count a workload still asks for.
func activeReplicas(obj runtime.Object) (int32, bool) {
	switch o := obj.(type) {
	case *apps.CloneSet:
		return replicasOrOne(o.Spec.Replicas), true
	case *apps.StatefulSet:
		return replicasOrOne(o.Spec.Replicas), true
	}
	return 0, false
}

func replicasOrOne(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}
