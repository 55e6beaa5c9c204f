package podwebhook

import (
	"context"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// registrations reads and patches the configuration of one phase (mutating or
// validating) as registrationViews: the keeper's logic is the same for both kinds.
type registrations struct {
	informer cache.SharedIndexInformer
	// cached reads it from the informer, live from kube-apiserver.
	cached func(name string) (registrationView, error)
	live   func(ctx context.Context, name string) (registrationView, error)
	// patch applies a JSON patch and returns the stored result.
	patch func(ctx context.Context, name string, patch []byte) (registrationView, error)
}

// registrationsOf are the configurations of phase p, read through kube (its informer
// is registered on the factory) and written through client.
func registrationsOf(p Phase, client kubernetes.Interface, kube kubeinformers.SharedInformerFactory) registrations {
	if p == Mutating {
		inf := kube.Admissionregistration().V1().MutatingWebhookConfigurations()
		api := client.AdmissionregistrationV1().MutatingWebhookConfigurations()
		return registrationsFrom(inf.Informer(), inf.Lister().Get, api.Get, api.Patch)
	}
	inf := kube.Admissionregistration().V1().ValidatingWebhookConfigurations()
	api := client.AdmissionregistrationV1().ValidatingWebhookConfigurations()
	return registrationsFrom(inf.Informer(), inf.Lister().Get, api.Get, api.Patch)
}

// registrationsFrom are one kind's configurations, from its informer, lister and
// typed client.
func registrationsFrom[C webhookConfiguration](informer cache.SharedIndexInformer, lister func(string) (C, error),
	get func(context.Context, string, metav1.GetOptions) (C, error),
	patch func(context.Context, string, types.PatchType, []byte, metav1.PatchOptions, ...string) (C, error)) registrations {
	return registrations{
		informer: informer,
		cached:   func(name string) (registrationView, error) { return viewOf(lister(name)) },
		live: func(ctx context.Context, name string) (registrationView, error) {
			return viewOf(get(ctx, name, metav1.GetOptions{}))
		},
		patch: func(ctx context.Context, name string, p []byte) (registrationView, error) {
			return viewOf(patch(ctx, name, types.JSONPatchType, p, metav1.PatchOptions{FieldManager: CallScopeFieldManager}))
		},
	}
}

// webhookConfiguration is either kind of configuration.
type webhookConfiguration interface {
	*admissionregistrationv1.MutatingWebhookConfiguration | *admissionregistrationv1.ValidatingWebhookConfiguration
}

// viewOf is what the call scope reads of c (passing a read's error on).
func viewOf[C webhookConfiguration](c C, err error) (registrationView, error) {
	if err != nil {
		return registrationView{}, err
	}
	var v registrationView
	switch c := any(c).(type) {
	case *admissionregistrationv1.MutatingWebhookConfiguration:
		v = registrationView{ResourceVersion: c.ResourceVersion, Annotations: c.Annotations}
		for _, h := range c.Webhooks {
			v.Hooks = append(v.Hooks, hookView{Name: h.Name, MatchConditions: h.MatchConditions})
		}
	case *admissionregistrationv1.ValidatingWebhookConfiguration:
		v = registrationView{ResourceVersion: c.ResourceVersion, Annotations: c.Annotations}
		for _, h := range c.Webhooks {
			v.Hooks = append(v.Hooks, hookView{Name: h.Name, MatchConditions: h.MatchConditions})
		}
	}
	return v, nil
}

// RegisteredCallClauses reads the call scope phase p's Pod webhook has in c (a
// configuration as read from kube-apiserver): whether it is narrowed, and the clauses
// its condition was built from (nil when narrowed but the recorded clauses do not make
// the condition: nobody knows what it picks).
func RegisteredCallClauses[C webhookConfiguration](c C, p Phase) (clauses CallClauses, narrowed bool) {
	v, _ := viewOf(c, nil)
	i := podHook(v, p)
	if i < 0 {
		return nil, false
	}
	s := readCallScope(v, i)
	return s.Clauses, s.Narrowed
}
