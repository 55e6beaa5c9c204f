// Package rollback serves the `rollback` subresource of Kruise workloads: POST a
// <Kind>Rollback naming a revision number (0 = the previous one) and the workload's
// pod template is restored from that ControllerRevision. One implementation serves
// every workload kind.
package rollback

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/kruise-native/kruise-native/pkg/revisiondata"
)

// RevisionLister lists the ControllerRevisions of a namespace (from kube-apiserver).
type RevisionLister func(ctx context.Context, namespace string) ([]appsv1.ControllerRevision, error)

// Accessor adapts one workload kind.
type Accessor struct {
	Resource schema.GroupResource
	// Kind is the request body's kind, for errors (e.g. CloneSetRollback).
	Kind string
	// NewRollback returns an empty request body; Request reads it.
	NewRollback func() runtime.Object
	Request     func(obj runtime.Object) (name string, toRevision int64, errs field.ErrorList)
	// Template points at the workload's pod template.
	Template func(obj runtime.Object) *corev1.PodTemplateSpec
}

// REST is the rollback subresource of one workload resource.
type REST struct {
	store     *genericregistry.Store
	accessor  Accessor
	revisions RevisionLister
}

var _ rest.NamedCreater = &REST{}

// NewREST serves rollback for the workloads in store.
func NewREST(store *genericregistry.Store, a Accessor, revisions RevisionLister) *REST {
	return &REST{store: store, accessor: a, revisions: revisions}
}

// New returns an empty rollback request.
func (r *REST) New() runtime.Object { return r.accessor.NewRollback() }

// Destroy is a no-op: the store is shared with the main resource.
func (r *REST) Destroy() {}

// Create restores the template of the requested revision and answers with the updated
// workload. (The OpenAPI of this endpoint describes the request body's kind: the
// response kind cannot be declared per version for a store shared by all versions.)
func (r *REST) Create(ctx context.Context, name string, obj runtime.Object, createValidation rest.ValidateObjectFunc, options *metav1.CreateOptions) (runtime.Object, error) {
	reqName, toRevision, errs := r.accessor.Request(obj)
	if reqName != "" && reqName != name {
		errs = append(errs, field.Invalid(field.NewPath("name"), reqName, "must match the name in the URL: "+name))
	}
	if len(errs) > 0 {
		return nil, apierrors.NewInvalid(schema.GroupKind{Group: r.accessor.Resource.Group, Kind: r.accessor.Kind}, name, errs)
	}
	if createValidation != nil {
		if err := createValidation(ctx, obj.DeepCopyObject()); err != nil {
			return nil, err
		}
	}
	current, err := r.store.Get(ctx, name, &metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	m, ok := current.(metav1.Object)
	if !ok {
		return nil, apierrors.NewInternalError(fmt.Errorf("%T has no metadata", current))
	}
	revs, err := r.ownedRevisions(ctx, m)
	if err != nil {
		return nil, err
	}
	target, err := pick(revs, toRevision, r.accessor.Resource, name)
	if err != nil {
		return nil, err
	}
	tmpl, err := revisiondata.Decode(target)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	updated, _, err := r.store.Update(ctx, name, rest.DefaultUpdatedObjectInfo(nil, func(_ context.Context, _, oldObj runtime.Object) (runtime.Object, error) {
		// No request object: the update starts from the stored object.
		newObj := oldObj.DeepCopyObject()
		*r.accessor.Template(newObj) = *tmpl
		return newObj, nil
	}), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{DryRun: options.DryRun, FieldManager: options.FieldManager})
	return updated, err
}

func (r *REST) ownedRevisions(ctx context.Context, owner metav1.Object) ([]appsv1.ControllerRevision, error) {
	all, err := r.revisions(ctx, owner.GetNamespace())
	if err != nil {
		return nil, apierrors.NewServiceUnavailable(fmt.Sprintf("listing revisions: %v", err))
	}
	return revisiondata.Owned(all, owner.GetUID()), nil
}

// pick finds the requested revision (revisiondata.Pick); not finding it is the
// client's mistake.
func pick(revs []appsv1.ControllerRevision, toRevision int64, resource schema.GroupResource, name string) (*appsv1.ControllerRevision, error) {
	rev, err := revisiondata.Pick(revs, toRevision)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("%s %q %v", resource, name, err))
	}
	return rev, nil
}
