// Package deletionprotection implements OpenKruise's deletion protection for Kruise
// workloads in-process: an object labelled policy.kruise.io/delete-protection=Always
// cannot be deleted, and one labelled Cascading cannot be deleted while it still asks
// for pods. The rule is pkg/deletionprotection's, which kruise-apiserver's webhook
// applies to Namespaces, CRDs, apps/v1 workloads, Services and Ingresses as well.
package deletionprotection

import (
	"context"
	"errors"
	"io"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"

	"github.com/kruise-native/kruise-native/pkg/deletionprotection"
)

// PluginName is the name under --enable-admission-plugins / --disable-admission-plugins.
const PluginName = "KruiseDeletionProtection"

// ActiveFunc is how many pods an object of a resource still asks for or runs, the
// field that says so, and whether the resource runs pods at all (kinds.ActivePods
// reads it through each kind's descriptor: spec.replicas, or a DaemonSet's status).
type ActiveFunc func(gr schema.GroupResource, obj runtime.Object) (count int32, field string, ok bool)

// Register adds the plugin to a plugin registry.
func Register(plugins *admission.Plugins, active ActiveFunc) {
	plugins.Register(PluginName, func(io.Reader) (admission.Interface, error) {
		return New(active), nil
	})
}

// Plugin rejects deletions the protection label forbids.
type Plugin struct {
	*admission.Handler
	active ActiveFunc
}

var _ admission.ValidationInterface = &Plugin{}

// New returns the plugin; it only acts on DELETE.
func New(active ActiveFunc) *Plugin {
	return &Plugin{Handler: admission.NewHandler(admission.Delete), active: active}
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
	reason, err := deletionprotection.Refusal(accessor.GetLabels(), func() (deletionprotection.Children, error) {
		count, fieldName, _ := p.active(a.GetResource().GroupResource(), obj)
		return deletionprotection.Replicas(fieldName, int64(count)), nil
	})
	if err != nil || reason == "" {
		return err
	}
	return forbidden(errors.New(reason))
}
