package resource

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/generic"
	"k8s.io/apiserver/pkg/registry/rest"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kruise-native/kruise-native/pkg/registry/rollback"
	"github.com/kruise-native/kruise-native/pkg/registry/scale"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

// Deps is what endpoints are built on.
type Deps struct {
	// Scheme types objects for the strategies.
	Scheme *runtime.Scheme
	// RESTOptions gives each resource its storage.
	RESTOptions generic.RESTOptionsGetter
	// Revisions and Secret read the core objects endpoints need from kube-apiserver,
	// with kruise-apiserver's own credentials: workloads' ControllerRevisions (rollback)
	// and the pull secrets a NodeImage names (nodeimages/pullsecrets).
	Revisions rollback.RevisionLister
	Secret    func(ctx context.Context, namespace, name string) (*corev1.Secret, error)
}

// Endpoints are a resource's main endpoint and its subresources.
type Endpoints struct {
	Main     *workload.REST
	Status   *workload.StatusREST
	Scale    *scale.REST    // nil without Kind.Scale
	Rollback *rollback.REST // nil without Kind.Rollback
	Other    map[string]rest.Storage
}

// Paths are the endpoints by the path an APIGroupInfo maps them under
// ("clonesets", "clonesets/status", ...).
func (e Endpoints) Paths(plural string) map[string]rest.Storage {
	out := map[string]rest.Storage{plural: e.Main, plural + "/status": e.Status}
	if e.Scale != nil {
		out[plural+"/scale"] = e.Scale
	}
	if e.Rollback != nil {
		out[plural+"/rollback"] = e.Rollback
	}
	for name, s := range e.Other {
		out[plural+"/"+name] = s
	}
	return out
}

// Endpoints implements Descriptor.
func (k Kind[T, Spec, Status]) Endpoints(deps Deps) (Endpoints, error) {
	strategyKind := k.strategyKind()
	main, err := workload.NewREST(workload.Resource{
		Plural:      k.GroupResource(),
		Singular:    schema.GroupResource{Group: k.Group, Resource: k.Singular},
		NewFunc:     func() runtime.Object { return k.New() },
		NewListFunc: k.NewList,
		Strategy:    workload.NewStrategy(deps.Scheme, strategyKind),
		Table:       k.Table,
		ShortNames:  k.ShortNames,
		Categories:  k.Categories,
	}, deps.RESTOptions)
	if err != nil {
		return Endpoints{}, fmt.Errorf("%s storage: %w", k.GroupResource(), err)
	}
	e := Endpoints{Main: main, Status: workload.NewStatusREST(main.Store, workload.NewStatusStrategy(deps.Scheme, strategyKind))}
	if k.Scale != nil {
		e.Scale = scale.NewREST(main.Store, k.scaleAccessor())
	}
	if k.Rollback != nil && k.Templates == nil {
		return Endpoints{}, fmt.Errorf("%s: a rollback needs Templates, the pod template it restores", k.GroupResource())
	}
	if k.Rollback != nil {
		e.Rollback = rollback.NewREST(main.Store, k.rollbackAccessor(), deps.Revisions)
	}
	if k.Subresources != nil {
		if e.Other, err = k.Subresources(main.Store, deps); err != nil {
			return Endpoints{}, fmt.Errorf("%s subresources: %w", k.GroupResource(), err)
		}
	}
	return e, nil
}

// strategyKind derives the shared strategies' view of the kind from its accessors.
func (k Kind[T, Spec, Status]) strategyKind() workload.Kind[T] {
	versions := make([]fieldpath.APIVersion, 0, len(k.Versions))
	for _, v := range k.Versions {
		versions = append(versions, fieldpath.APIVersion(schema.GroupVersion{Group: k.Group, Version: v}.String()))
	}
	return workload.Kind[T]{
		ResetStatus: func(obj T) { var zero Status; *k.Status(obj) = zero },
		KeepStatus:  func(obj, old T) { *k.Status(obj) = *k.Status(old) },
		KeepSpec:    func(obj, old T) { *k.Spec(obj) = *k.Spec(old) },
		SpecChanged: func(obj, old T) bool {
			return !apiequality.Semantic.DeepEqual(k.Spec(obj), k.Spec(old))
		},
		Templates:            k.Templates,
		PodTemplate:          k.PodTemplate,
		Warnings:             k.Warnings,
		PrepareForCreate:     k.PrepareForCreate,
		PrepareForUpdate:     k.PrepareForUpdate,
		ClusterScoped:        k.ClusterScoped,
		Versions:             versions,
		Validate:             k.Validate,
		ValidateUpdate:       k.ValidateUpdate,
		ValidateStatusUpdate: k.ValidateStatusUpdate,
		ErrorPaths:           k.ErrorPaths,
	}
}

func (k Kind[T, Spec, Status]) scaleAccessor() scale.Accessor {
	versions := make([]schema.GroupVersion, 0, len(k.Versions))
	for _, v := range k.Versions {
		versions = append(versions, schema.GroupVersion{Group: k.Group, Version: v})
	}
	s := k.Scale
	return scale.Accessor{
		Resource:       schema.GroupResource{Group: k.Group, Resource: k.Plural + "/scale"},
		Versions:       versions,
		SpecReplicas:   func(obj runtime.Object) (*int32, error) { return s.Replicas(obj.(T)), nil },
		StatusReplicas: func(obj runtime.Object) int32 { return s.StatusReplicas(obj.(T)) },
		Selector: func(obj runtime.Object) (string, error) {
			return workload.SelectorString(s.Selector(obj.(T)))
		},
	}
}

func (k Kind[T, Spec, Status]) rollbackAccessor() rollback.Accessor {
	r := k.Rollback
	return rollback.Accessor{
		Resource:    schema.GroupResource{Group: k.Group, Resource: k.Plural + "/rollback"},
		Kind:        r.Kind,
		NewRollback: r.New,
		Request:     r.Request,
		Template: func(obj runtime.Object) *corev1.PodTemplateSpec {
			tmpl, _ := k.Templates(obj.(T))
			return tmpl
		},
	}
}

// Strategies returns the strategies of the main endpoint and of status, as Endpoints
// builds them: for tests of a kind's rules without storage.
func (k Kind[T, Spec, Status]) Strategies(typer runtime.ObjectTyper) (workload.Strategy, workload.StatusStrategy) {
	sk := k.strategyKind()
	return workload.NewStrategy(typer, sk), workload.NewStatusStrategy(typer, sk)
}
