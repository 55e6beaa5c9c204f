// Package podstodelete lets a CloneSet's spec.scaleStrategy.podsToDelete name only the
// CloneSet's own live pods. The names are pods the controller deletes first: a name of
// another workload's pod is refused. A name of no pod, or of a pod being deleted, is
// refused when the same update lowers replicas (kubectl kruise scaledown's patch:
// replicas would drop without removing the pod the writer meant), and otherwise only
// warned of: the controller drops such names from the list, so a GitOps tool applying
// its manifest again (with names the controller has dropped since, replicas as
// stored) would else be refused for ever. The rule was kubectl-kruise scaledown's; in
// the server every client (kubectl patch, apply, a GitOps tool) gets it.
package podstodelete

import (
	"context"
	"fmt"
	"io"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/admission"
	genericadmissioninit "k8s.io/apiserver/pkg/admission/initializer"
	"k8s.io/apiserver/pkg/warning"

	"github.com/kruise-native/kruise-native/pkg/admission/internal/livepods"
	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// PluginName is the name under --enable-admission-plugins / --disable-admission-plugins.
const PluginName = "KruiseCloneSetPodsToDelete"

// Register adds the plugin to a plugin registry.
func Register(plugins *admission.Plugins) {
	plugins.Register(PluginName, func(io.Reader) (admission.Interface, error) { return New(), nil })
}

// Plugin judges the podsToDelete names an update adds (see the package comment).
// Only the names an update adds are read, one GET each (livepods).
type Plugin struct {
	*admission.Handler
	livepods.Reader
}

var (
	_ admission.ValidationInterface                   = &Plugin{}
	_ genericadmissioninit.WantsExternalKubeClientSet = &Plugin{}
	_ admission.InitializationValidator               = &Plugin{}
)

// New returns the plugin. It acts on UPDATE only: a CloneSet being created controls no
// pod yet, and names its controller does not find are dropped from the list (as
// OpenKruise does), so a manifest applied afresh keeps working.
func New() *Plugin { return &Plugin{Handler: admission.NewHandler(admission.Update)} }

// Validate checks the names an update adds to podsToDelete. Names already listed are
// not read again: their pods may have gone since, and the controller removes them.
func (p *Plugin) Validate(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if a.GetResource().GroupResource() != apps.Resource("clonesets") || a.GetSubresource() != "" {
		return nil
	}
	cs, ok := a.GetObject().(*apps.CloneSet)
	if !ok {
		return apierrors.NewBadRequest(fmt.Sprintf("unexpected object %T", a.GetObject()))
	}
	old, ok := a.GetOldObject().(*apps.CloneSet)
	if !ok {
		return apierrors.NewBadRequest(fmt.Sprintf("unexpected old object %T", a.GetOldObject()))
	}
	listed := sets.New(old.Spec.ScaleStrategy.PodsToDelete...)
	lowers := replicas(cs) < replicas(old)
	path := field.NewPath("spec", "scaleStrategy", "podsToDelete")
	var errs field.ErrorList
	for i, name := range cs.Spec.ScaleStrategy.PodsToDelete {
		if listed.Has(name) {
			continue
		}
		pod, err := p.Pod(ctx, a.GetNamespace(), name)
		if err != nil && !apierrors.IsNotFound(err) {
			return apierrors.NewInternalError(fmt.Errorf("reading pod %s/%s: %w", a.GetNamespace(), name, err))
		}
		switch refusal, warn := judge(cs, pod, lowers); {
		case refusal != "":
			errs = append(errs, field.Invalid(path.Index(i), name, refusal))
		case warn != "":
			warning.AddWarning(ctx, "", fmt.Sprintf("%s: %q: %s", path.Index(i), name, warn))
		}
	}
	if len(errs) > 0 {
		return apierrors.NewInvalid(apps.Kind("CloneSet"), cs.Name, errs)
	}
	return nil
}

// judge says why pod (nil: there is none) may not be listed, or what the writer
// should know about a name that is harmless; both "" when the name is one of the
// CloneSet's live pods. lowers: the update lowers replicas as well.
func judge(cs *apps.CloneSet, pod *corev1.Pod, lowers bool) (refusal, warn string) {
	var gone string
	switch {
	case pod == nil:
		gone = "no such pod in the CloneSet's namespace"
	case !metav1.IsControlledBy(pod, cs):
		return "the pod is not controlled by this CloneSet", ""
	case pod.DeletionTimestamp != nil:
		gone = "the pod is being deleted already"
	default:
		return "", ""
	}
	if lowers {
		return gone, ""
	}
	return "", gone + ": the controller drops the name"
}

// replicas is spec.replicas, 1 when unset (the server's default).
func replicas(cs *apps.CloneSet) int32 {
	if cs.Spec.Replicas == nil {
		return 1
	}
	return *cs.Spec.Replicas
}
