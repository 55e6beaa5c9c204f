// Package resourcedistribution makes a ResourceDistribution no wider than its writer's
// own rights. A distribution writes Secrets or ConfigMaps into other namespaces; were
// permission to create ResourceDistributions enough, it would be permission to write
// any Secret anywhere. So when a distribution is created, or its spec changes,
// kruise-apiserver asks its delegated authorizer (a SubjectAccessReview to
// kube-apiserver, for the requesting user with their groups, extra and uid) whether
// that user may create the copies' resource — and on a spec change also update it —
// in every namespace the distribution targets at that moment, and refuses the write
// with 403 naming the namespaces where they may not. The server records the user
// (pkg/registry/apps/resourcedistribution), and kruise-controller asks again for that
// user before it writes into a namespace that starts to match later.
package resourcedistribution

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/admission"
	genericadmissioninit "k8s.io/apiserver/pkg/admission/initializer"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/client-go/informers"
	corelisters "k8s.io/client-go/listers/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	rdcontract "github.com/kruise-native/kruise-native/pkg/apis/apps/rules/resourcedistribution"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// PluginName is the name under --enable-admission-plugins / --disable-admission-plugins.
const PluginName = "KruiseResourceDistributionAccess"

// Register adds the plugin to a plugin registry.
func Register(plugins *admission.Plugins) {
	plugins.Register(PluginName, func(io.Reader) (admission.Interface, error) { return New(), nil })
}

// Plugin refuses ResourceDistributions whose writer may not write the copies.
type Plugin struct {
	*admission.Handler
	authorizer authorizer.Authorizer
	namespaces corelisters.NamespaceLister
}

var (
	_ admission.ValidationInterface                         = &Plugin{}
	_ genericadmissioninit.WantsAuthorizer                  = &Plugin{}
	_ genericadmissioninit.WantsExternalKubeInformerFactory = &Plugin{}
)

// New returns the plugin; it acts on creates and updates.
func New() *Plugin {
	return &Plugin{Handler: admission.NewHandler(admission.Create, admission.Update)}
}

// SetAuthorizer gives the plugin the server's authorizer: delegated to kube-apiserver
// by SubjectAccessReview, its decisions cached (10 s) and concurrent identical
// questions shared (pkg/apiserver/authzflight).
func (p *Plugin) SetAuthorizer(a authorizer.Authorizer) { p.authorizer = a }

// SetExternalKubeInformerFactory registers the namespace informer (the targets are
// evaluated against the namespaces that exist) and holds requests until it has synced.
func (p *Plugin) SetExternalKubeInformerFactory(f informers.SharedInformerFactory) {
	inf := f.Core().V1().Namespaces()
	p.namespaces = inf.Lister()
	p.SetReadyFunc(inf.Informer().HasSynced)
}

// ValidateInitialization fails server start-up without an authorizer or namespaces:
// the plugin must never let a distribution through unchecked.
func (p *Plugin) ValidateInitialization() error {
	if p.authorizer == nil {
		return errors.New("no authorizer")
	}
	if p.namespaces == nil {
		return errors.New("no kube informer factory (--kubeconfig)")
	}
	return nil
}

// Validate checks a created distribution, or an updated one whose spec changed (an
// update that leaves the spec alone leaves its copies, and its recorded user, alone).
func (p *Plugin) Validate(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if a.GetResource().GroupResource() != apps.Resource("resourcedistributions") || a.GetSubresource() != "" {
		return nil
	}
	rd, ok := a.GetObject().(*apps.ResourceDistribution)
	if !ok {
		return apierrors.NewBadRequest(fmt.Sprintf("unexpected object %T", a.GetObject()))
	}
	verbs := rdcontract.VerbsOnCreate
	if a.GetOperation() == admission.Update {
		old, ok := a.GetOldObject().(*apps.ResourceDistribution)
		if !ok {
			return apierrors.NewBadRequest(fmt.Sprintf("unexpected old object %T", a.GetOldObject()))
		}
		if apiequality.Semantic.DeepEqual(rd.Spec, old.Spec) {
			return nil
		}
		verbs = rdcontract.VerbsOnUpdate
	}
	res, errs := rdcontract.Decode(rd.Spec.Resource.Raw, field.NewPath("spec", "resource"))
	if len(errs) > 0 {
		return nil // validation has refused it already (it runs first)
	}
	u := a.GetUserInfo()
	if u == nil || u.GetName() == "" {
		return admission.NewForbidden(a, errors.New("the request has no user to check the distribution's rights for"))
	}
	if !p.WaitForReady() {
		return admission.NewForbidden(a, errors.New("not yet ready: the namespace cache has not synced, retry"))
	}
	targets, err := p.targets(rd)
	if err != nil {
		return nil // an invalid selector: validation has refused it already
	}
	denied, err := rdcontract.Forbidden(ctx, authorizerAccess{p.authorizer, u}, res, verbs, targets)
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("checking the rights of %q in the target namespaces: %w", u.GetName(), err))
	}
	if len(denied) > 0 {
		return admission.NewForbidden(a, fmt.Errorf("user %q may not write %s %q into %s: a ResourceDistribution writes its copies "+
			"on behalf of the user who creates it or changes its spec, who needs %s on %s in every namespace it targets",
			u.GetName(), strings.ToLower(res.Kind()), res.Meta().Name, rdcontract.DescribeForbidden(denied),
			strings.Join(verbs, " and "), rdcontract.ResourceOf(res.Kind())))
	}
	return nil
}

// targets are the existing, active namespaces the distribution selects now, as the
// controller computes them (never kube-system, kube-public, kruise-system). Named
// namespaces that do not exist yet are checked by the controller when they appear.
func (p *Plugin) targets(rd *apps.ResourceDistribution) ([]string, error) {
	var t v1alpha1.ResourceDistributionTargets
	if err := v1alpha1.Convert_apps_ResourceDistributionTargets_To_v1alpha1_ResourceDistributionTargets(&rd.Spec.Targets, &t, nil); err != nil {
		return nil, err
	}
	all, err := p.namespaces.List(labels.Everything())
	if err != nil {
		return nil, err
	}
	set, err := rdcontract.Targets(&t, all)
	if err != nil {
		return nil, err
	}
	return set.Namespaces, nil
}

// authorizerAccess asks the server's authorizer about one user.
type authorizerAccess struct {
	authorizer authorizer.Authorizer
	user       user.Info
}

func (a authorizerAccess) Allowed(ctx context.Context, c rdcontract.Check) (bool, string, error) {
	decision, reason, err := a.authorizer.Authorize(ctx, authorizer.AttributesRecord{
		User: a.user, Verb: c.Verb, Namespace: c.Namespace, APIGroup: "", APIVersion: "v1",
		Resource: c.Resource, Name: c.Name, ResourceRequest: true,
	})
	switch {
	case decision == authorizer.DecisionAllow:
		return true, reason, nil
	case decision == authorizer.DecisionDeny:
		return false, reason, nil
	case err != nil: // no decision: unknown, not denied
		return false, reason, err
	}
	return false, reason, nil // no authorizer allows it
}
