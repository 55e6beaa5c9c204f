// Package sidecarsetconflict enforces the cluster-wide rule no single SidecarSet can
// check by itself: two SidecarSets that can select the same pod (their namespaces and
// selectors overlap) may not inject containers of the same name, volumes of the same
// name with different definitions, or annotations one of them overwrites. A create or
// update that would add such a clash is rejected with 422, naming the other SidecarSet.
//
// The other SidecarSets come from an informer cache, so two conflicting writes racing
// each other can both pass, as with OpenKruise's webhook; the pod webhook then keeps
// the pod valid by injecting the first SidecarSet's container only.
package sidecarsetconflict

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apiserver/pkg/admission"
	genericadmissioninit "k8s.io/apiserver/pkg/admission/initializer"
	"k8s.io/client-go/kubernetes"

	kruiseinitializer "github.com/kruise-native/kruise-native/pkg/admission/initializer"
	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
)

// PluginName is the name under --enable-admission-plugins / --disable-admission-plugins.
const PluginName = "KruiseSidecarSetConflict"

// Register adds the plugin to a plugin registry.
func Register(plugins *admission.Plugins) {
	plugins.Register(PluginName, func(io.Reader) (admission.Interface, error) { return New(), nil })
}

// Plugin rejects SidecarSets that clash with another in the pods both select.
type Plugin struct {
	*admission.Handler
	sidecarSets func() ([]*v1beta1.SidecarSet, error)
	namespaces  func(ctx context.Context, name string) (*corev1.Namespace, error)
}

var (
	_ admission.ValidationInterface                   = &Plugin{}
	_ kruiseinitializer.WantsKruiseInformerFactory    = &Plugin{}
	_ genericadmissioninit.WantsExternalKubeClientSet = &Plugin{}
)

// New returns the plugin; it acts on creates and updates.
func New() *Plugin {
	return &Plugin{Handler: admission.NewHandler(admission.Create, admission.Update)}
}

// SetKruiseInformerFactory registers the SidecarSet informer (before the factory
// starts) and holds requests until it has synced.
func (p *Plugin) SetKruiseInformerFactory(f kruiseinformers.SharedInformerFactory) {
	informer := f.Apps().V1beta1().SidecarSets()
	lister := informer.Lister()
	p.sidecarSets = func() ([]*v1beta1.SidecarSet, error) { return lister.List(labels.Everything()) }
	p.SetReadyFunc(informer.Informer().HasSynced)
}

// SetExternalKubeClientSet gives the plugin kube-apiserver, for namespace labels. A
// namespace is read only when one SidecarSet names a namespace and the other selects
// namespaces by label; SidecarSet writes are rare, a namespace cache is not needed.
func (p *Plugin) SetExternalKubeClientSet(c kubernetes.Interface) {
	p.namespaces = func(ctx context.Context, name string) (*corev1.Namespace, error) {
		return c.CoreV1().Namespaces().Get(ctx, name, metav1.GetOptions{})
	}
}

// ValidateInitialization fails server start-up without the informers or a kube client.
func (p *Plugin) ValidateInitialization() error {
	if p.sidecarSets == nil {
		return errors.New("no Kruise informer factory")
	}
	if p.namespaces == nil {
		return errors.New("no kube-apiserver client (--kubeconfig)")
	}
	return nil
}

// Validate checks a SidecarSet against every other one.
func (p *Plugin) Validate(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if a.GetResource().GroupResource() != apps.Resource("sidecarsets") || a.GetSubresource() != "" {
		return nil
	}
	ss, ok := a.GetObject().(*apps.SidecarSet)
	if !ok {
		return apierrors.NewBadRequest(fmt.Sprintf("unexpected object %T", a.GetObject()))
	}
	var old *apps.SidecarSet
	if a.GetOperation() == admission.Update {
		if old, ok = a.GetOldObject().(*apps.SidecarSet); !ok {
			return apierrors.NewBadRequest(fmt.Sprintf("unexpected old object %T", a.GetOldObject()))
		}
	}
	if !p.WaitForReady() {
		return admission.NewForbidden(a, errors.New("not yet ready: the SidecarSet cache has not synced, retry"))
	}
	others, err := p.sidecarSets()
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("listing SidecarSets: %w", err))
	}
	sort.Slice(others, func(i, j int) bool { return others[i].Name < others[j].Name })

	var now, before []conflict
	for _, o := range others {
		if o.Name == ss.Name {
			continue
		}
		theirs := footprintOfV1beta1(o)
		c, err := p.conflicts(ctx, ss, theirs)
		if err != nil {
			return apierrors.NewInternalError(fmt.Errorf("comparing with SidecarSet %s: %w", o.Name, err))
		}
		now = append(now, c...)
		if old != nil && len(c) > 0 {
			if c, err = p.conflicts(ctx, old, theirs); err != nil {
				return apierrors.NewInternalError(fmt.Errorf("comparing with SidecarSet %s: %w", o.Name, err))
			}
			before = append(before, c...)
		}
	}
	if errs := newConflicts(now, before); len(errs) > 0 {
		return apierrors.NewInvalid(apps.Kind("SidecarSet"), ss.Name, errs)
	}
	return nil
}

// conflicts lists what ss and other would both put into a pod, if any pod can be
// selected by both.
func (p *Plugin) conflicts(ctx context.Context, ss *apps.SidecarSet, other footprint) ([]conflict, error) {
	mine := footprintOfHub(ss)
	overlap, err := p.namespacesOverlap(ctx, mine, other)
	if err != nil || !overlap {
		return nil, err
	}
	if overlap, err = selectorsOverlap(mine.selector, other.selector); err != nil || !overlap {
		return nil, err
	}
	return conflictsWith(ss, other), nil
}

// namespacesOverlap reports whether some namespace is in both SidecarSets' scope.
func (p *Plugin) namespacesOverlap(ctx context.Context, a, b footprint) (bool, error) {
	switch {
	case a.namespace != "" && b.namespace != "":
		return a.namespace == b.namespace, nil
	case a.namespace != "":
		return p.namespaceSelected(ctx, a.namespace, b.namespaceSelector)
	case b.namespace != "":
		return p.namespaceSelected(ctx, b.namespace, a.namespaceSelector)
	default:
		return selectorsOverlap(a.namespaceSelector, b.namespaceSelector)
	}
}

// namespaceSelected reports whether selector selects the named namespace. A namespace
// that does not exist yet may be created with matching labels: it counts as selected.
func (p *Plugin) namespaceSelected(ctx context.Context, name string, selector *metav1.LabelSelector) (bool, error) {
	if selector == nil {
		return true, nil
	}
	ns, err := p.namespaces(ctx, name)
	if apierrors.IsNotFound(err) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading namespace %s: %w", name, err)
	}
	sel, err := metav1.LabelSelectorAsSelector(selector)
	if err != nil {
		return false, fmt.Errorf("parsing namespace selector: %w", err)
	}
	return sel.Matches(labels.Set(ns.Labels)), nil
}
