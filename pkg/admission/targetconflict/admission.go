// Package targetconflict enforces a rule no single object can check by itself: a
// workload is the target of at most one WorkloadSpread and of at most one
// PersistentPodState. Two spreads of one workload would each place and count its pods
// against their own subsets; two pod states would each record its pods and pin them
// to their own nodes. A create that would make a second one is rejected with 422,
// naming the other (OpenKruise's webhooks refuse it too).
//
// The others come from informer caches, so two creates racing each other can both
// pass, as with OpenKruise's webhooks. Only creates are judged: both kinds' targets
// are immutable (validation refuses an update that moves one before admission runs),
// so objects already stored, even two of one workload, stay updatable.
package targetconflict

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/admission"

	kruiseinitializer "github.com/kruise-native/kruise-native/pkg/admission/initializer"
	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
)

// PluginName is the name under --enable-admission-plugins / --disable-admission-plugins.
const PluginName = "KruiseTargetConflict"

// Register adds the plugin to a plugin registry.
func Register(plugins *admission.Plugins) {
	plugins.Register(PluginName, func(io.Reader) (admission.Interface, error) { return New(), nil })
}

// target is what a spread or a pod state names: the workload's group, kind and name
// (the version does not matter: every version is the same workload).
type target struct {
	group, kind, name string
}

func targetOf(apiVersion, kind, name string) target {
	gv, _ := schema.ParseGroupVersion(apiVersion)
	return target{group: gv.Group, kind: kind, name: name}
}

func (t target) String() string {
	return schema.GroupKind{Group: t.group, Kind: t.kind}.String() + " " + t.name
}

// claim is one stored object's target.
type claim struct {
	name     string
	target   target
	deleting bool
}

// guarded is one kind the plugin checks: how to read an object's target and the
// targets of the others in a namespace.
type guarded struct {
	kind   string
	target func(runtime.Object) (target, bool)
	others func(namespace string) ([]claim, error)
}

// Plugin rejects a second WorkloadSpread or PersistentPodState of one workload.
type Plugin struct {
	*admission.Handler
	kinds map[schema.GroupResource]*guarded
}

var (
	_ admission.ValidationInterface                = &Plugin{}
	_ kruiseinitializer.WantsKruiseInformerFactory = &Plugin{}
)

// New returns the plugin; it acts on creates.
func New() *Plugin {
	return &Plugin{Handler: admission.NewHandler(admission.Create)}
}

// SetKruiseInformerFactory registers the WorkloadSpread and PersistentPodState
// informers (before the factory starts) and holds requests until both have synced.
func (p *Plugin) SetKruiseInformerFactory(f kruiseinformers.SharedInformerFactory) {
	spreads := f.Apps().V1beta1().WorkloadSpreads()
	podStates := f.Apps().V1beta1().PersistentPodStates()
	p.watch(
		func(ns string) ([]*v1beta1.WorkloadSpread, error) {
			return spreads.Lister().WorkloadSpreads(ns).List(labels.Everything())
		},
		func(ns string) ([]*v1beta1.PersistentPodState, error) {
			return podStates.Lister().PersistentPodStates(ns).List(labels.Everything())
		})
	spreadsSynced, podStatesSynced := spreads.Informer().HasSynced, podStates.Informer().HasSynced
	p.SetReadyFunc(func() bool { return spreadsSynced() && podStatesSynced() })
}

// watch sets where the plugin reads the stored objects of each kind from.
func (p *Plugin) watch(spreads func(string) ([]*v1beta1.WorkloadSpread, error),
	podStates func(string) ([]*v1beta1.PersistentPodState, error)) {
	p.kinds = map[schema.GroupResource]*guarded{
		apps.Resource("workloadspreads"): {kind: "WorkloadSpread", target: spreadTarget,
			others: func(ns string) ([]claim, error) {
				list, err := spreads(ns)
				var out []claim
				for _, ws := range list {
					if r := ws.Spec.TargetReference; r != nil {
						out = append(out, claim{ws.Name, targetOf(r.APIVersion, r.Kind, r.Name), ws.DeletionTimestamp != nil})
					}
				}
				return out, err
			}},
		apps.Resource("persistentpodstates"): {kind: "PersistentPodState", target: podStateTarget,
			others: func(ns string) ([]claim, error) {
				list, err := podStates(ns)
				var out []claim
				for _, pps := range list {
					r := pps.Spec.TargetReference
					out = append(out, claim{pps.Name, targetOf(r.APIVersion, r.Kind, r.Name), pps.DeletionTimestamp != nil})
				}
				return out, err
			}},
	}
}

func spreadTarget(obj runtime.Object) (target, bool) {
	ws, ok := obj.(*apps.WorkloadSpread)
	if !ok || ws.Spec.TargetReference == nil {
		return target{}, false
	}
	r := ws.Spec.TargetReference
	return targetOf(r.APIVersion, r.Kind, r.Name), true
}

func podStateTarget(obj runtime.Object) (target, bool) {
	pps, ok := obj.(*apps.PersistentPodState)
	if !ok {
		return target{}, false
	}
	r := pps.Spec.TargetReference
	return targetOf(r.APIVersion, r.Kind, r.Name), true
}

// ValidateInitialization fails server start-up without the informers.
func (p *Plugin) ValidateInitialization() error {
	if p.kinds == nil {
		return errors.New("no Kruise informer factory")
	}
	return nil
}

// Validate refuses an object whose target another object of its kind already has.
func (p *Plugin) Validate(_ context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	g, ok := p.kinds[a.GetResource().GroupResource()]
	if !ok || a.GetSubresource() != "" {
		return nil
	}
	mine, ok := g.target(a.GetObject())
	if !ok {
		return nil // no target: validation refuses it
	}
	if !p.WaitForReady() {
		return admission.NewForbidden(a, fmt.Errorf("not yet ready: the %s cache has not synced, retry", g.kind))
	}
	others, err := g.others(a.GetNamespace())
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("listing %ss: %w", g.kind, err))
	}
	sort.Slice(others, func(i, j int) bool { return others[i].name < others[j].name })
	for _, o := range others {
		// One being deleted is going: a user replacing it need not wait for it.
		if o.name == a.GetName() || o.deleting || o.target != mine {
			continue
		}
		return apierrors.NewInvalid(apps.Kind(g.kind), a.GetName(), field.ErrorList{field.Invalid(
			field.NewPath("spec", "targetRef"), mine.String(),
			fmt.Sprintf("%s %q already targets this workload: a workload has at most one %s", g.kind, o.name, g.kind))})
	}
	return nil
}
