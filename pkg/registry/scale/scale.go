// Package scale serves the autoscaling/v1 `scale` subresource for every Kruise
// workload with replicas: one implementation, parameterised by how to read and write
// a kind's replica count, so `kubectl scale` and the HPA behave as for Deployments.
package scale

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/apis/autoscaling"
	autoscalingv1 "k8s.io/kubernetes/pkg/apis/autoscaling/v1"
	autoscalingvalidation "k8s.io/kubernetes/pkg/apis/autoscaling/validation"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Accessor reads and writes the replica fields of one workload kind.
type Accessor struct {
	// Resource is used in error messages, e.g. apps.kruise.io/clonesets/scale.
	Resource schema.GroupResource
	// Versions are the API versions whose spec.replicas is the scale path.
	Versions []schema.GroupVersion
	// SpecReplicas returns a pointer to spec.replicas (never nil after defaulting).
	SpecReplicas func(obj runtime.Object) (*int32, error)
	// StatusReplicas returns status.replicas.
	StatusReplicas func(obj runtime.Object) int32
	// Selector returns the workload's label selector in string form.
	Selector func(obj runtime.Object) (string, error)
}

// REST is the scale subresource of one workload resource.
type REST struct {
	store    *genericregistry.Store
	accessor Accessor
	paths    managedfields.ResourcePathMappings
}

var (
	_ rest.Patcher                  = &REST{}
	_ rest.GroupVersionKindProvider = &REST{}
	_ rest.TableConvertor           = &REST{}
)

// NewREST serves scale for the workloads in store.
func NewREST(store *genericregistry.Store, a Accessor) *REST {
	paths := managedfields.ResourcePathMappings{}
	for _, gv := range a.Versions {
		paths[gv.String()] = fieldpath.MakePathOrDie("spec", "replicas")
	}
	return &REST{store: store, accessor: a, paths: paths}
}

// GroupVersionKind says every version serves autoscaling/v1 Scale.
func (r *REST) GroupVersionKind(schema.GroupVersion) schema.GroupVersionKind {
	return autoscalingv1.SchemeGroupVersion.WithKind("Scale")
}

// New returns an empty Scale.
func (r *REST) New() runtime.Object { return &autoscaling.Scale{} }

// Destroy is a no-op: the store is shared with the main resource.
func (r *REST) Destroy() {}

// Get returns the workload's Scale.
func (r *REST) Get(ctx context.Context, name string, options *metav1.GetOptions) (runtime.Object, error) {
	obj, err := r.store.Get(ctx, name, options)
	if err != nil {
		return nil, err
	}
	return r.toScale(obj)
}

// Update applies a Scale to the workload's spec.replicas.
func (r *REST) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, createValidation rest.ValidateObjectFunc, updateValidation rest.ValidateObjectUpdateFunc, _ bool, options *metav1.UpdateOptions) (runtime.Object, bool, error) {
	obj, _, err := r.store.Update(ctx, name,
		&updatedObjectInfo{rest: r, name: name, req: objInfo},
		r.scaleCreateValidation(createValidation),
		r.scaleUpdateValidation(updateValidation),
		false, options)
	if err != nil {
		return nil, false, err
	}
	s, err := r.toScale(obj)
	return s, false, err
}

// ConvertToTable prints scales with the default columns.
func (r *REST) ConvertToTable(ctx context.Context, object runtime.Object, tableOptions runtime.Object) (*metav1.Table, error) {
	return rest.NewDefaultTableConvertor(r.accessor.Resource).ConvertToTable(ctx, object, tableOptions)
}

func (r *REST) toScale(obj runtime.Object) (*autoscaling.Scale, error) {
	m, err := metaOf(obj)
	if err != nil {
		return nil, err
	}
	replicas, err := r.accessor.SpecReplicas(obj)
	if err != nil {
		return nil, err
	}
	selector, err := r.accessor.Selector(obj)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid selector: %v", err))
	}
	s := &autoscaling.Scale{
		ObjectMeta: metav1.ObjectMeta{
			Name:              m.GetName(),
			Namespace:         m.GetNamespace(),
			UID:               m.GetUID(),
			ResourceVersion:   m.GetResourceVersion(),
			CreationTimestamp: m.GetCreationTimestamp(),
		},
		Status: autoscaling.ScaleStatus{Replicas: r.accessor.StatusReplicas(obj), Selector: selector},
	}
	if replicas != nil {
		s.Spec.Replicas = *replicas
	}
	return s, nil
}

func (r *REST) scaleCreateValidation(f rest.ValidateObjectFunc) rest.ValidateObjectFunc {
	return func(ctx context.Context, obj runtime.Object) error {
		s, err := r.toScale(obj)
		if err != nil {
			return err
		}
		return f(ctx, s)
	}
}

func (r *REST) scaleUpdateValidation(f rest.ValidateObjectUpdateFunc) rest.ValidateObjectUpdateFunc {
	return func(ctx context.Context, obj, old runtime.Object) error {
		s, err := r.toScale(obj)
		if err != nil {
			return err
		}
		oldScale, err := r.toScale(old)
		if err != nil {
			return err
		}
		return f(ctx, s, oldScale)
	}
}

// updatedObjectInfo turns the client's Scale into an updated workload, carrying the
// managed fields of spec.replicas across so server-side apply on /scale works.
type updatedObjectInfo struct {
	rest *REST
	name string
	req  rest.UpdatedObjectInfo
}

func (i *updatedObjectInfo) Preconditions() *metav1.Preconditions { return i.req.Preconditions() }

func (i *updatedObjectInfo) UpdatedObject(ctx context.Context, oldObj runtime.Object) (runtime.Object, error) {
	r := i.rest
	workload := oldObj.DeepCopyObject()
	m, err := metaOf(workload)
	if err != nil {
		return nil, err
	}
	if m.GetResourceVersion() == "" {
		return nil, apierrors.NewNotFound(r.accessor.Resource, i.name)
	}
	gv := r.accessor.Versions[0]
	if info, ok := genericapirequest.RequestInfoFrom(ctx); ok {
		reqGV := schema.GroupVersion{Group: info.APIGroup, Version: info.APIVersion}
		if _, known := r.paths[reqGV.String()]; known {
			gv = reqGV
		}
	}
	handler := managedfields.NewScaleHandler(m.GetManagedFields(), gv, r.paths)

	oldScale, err := r.toScale(workload)
	if err != nil {
		return nil, err
	}
	if oldScale.ManagedFields, err = handler.ToSubresource(); err != nil {
		return nil, err
	}
	newObj, err := i.req.UpdatedObject(ctx, oldScale)
	if err != nil {
		return nil, err
	}
	if newObj == nil {
		return nil, apierrors.NewBadRequest("nil update passed to Scale")
	}
	s, ok := newObj.(*autoscaling.Scale)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("expected a Scale, got %T", newObj))
	}
	if errs := autoscalingvalidation.ValidateScale(s); len(errs) > 0 {
		return nil, apierrors.NewInvalid(autoscaling.Kind("Scale"), s.Name, errs)
	}
	replicas, err := r.accessor.SpecReplicas(workload)
	if err != nil {
		return nil, err
	}
	*replicas = s.Spec.Replicas
	// A Scale without a resourceVersion is an unconditional update, as for Deployments.
	m.SetResourceVersion(s.ResourceVersion)
	mf, err := handler.ToParent(s.ManagedFields)
	if err != nil {
		return nil, err
	}
	m.SetManagedFields(mf)
	return workload, nil
}

func metaOf(obj runtime.Object) (metav1.Object, error) {
	m, ok := obj.(metav1.Object)
	if !ok {
		return nil, apierrors.NewInternalError(fmt.Errorf("%T has no object metadata", obj))
	}
	return m, nil
}
