package workload

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage/names"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Object is a workload's hub type (a pointer type).
type Object interface {
	runtime.Object
	metav1.Object
}

// Kind tells the shared strategies how to handle one workload kind: where its status,
// spec and templates are, and which validation applies. The rules themselves
// (status discipline, generation, warnings) are the same for every workload.
type Kind[T Object] struct {
	// ResetStatus clears status (on create).
	ResetStatus func(obj T)
	// KeepStatus copies the stored status over (main endpoint updates).
	KeepStatus func(obj, old T)
	// KeepSpec copies the stored spec over (status endpoint updates).
	KeepSpec func(obj, old T)
	// SpecChanged reports whether an update changed the spec.
	SpecChanged func(obj, old T) bool
	// Templates returns the pod template and claim templates, for kube's warnings and
	// the drop of disabled fields; nil for kinds without templates.
	Templates func(obj T) (*corev1.PodTemplateSpec, []corev1.PersistentVolumeClaim)
	// PodTemplate, if set, is the pod template whose disabled fields are dropped where
	// the kind has no Templates (no warnings).
	PodTemplate func(obj T) *corev1.PodTemplateSpec
	// Warnings, if set, are the kind's own warnings (besides the templates'), given on
	// create and on updates that change the spec.
	Warnings func(obj T) []string
	// PrepareForCreate and PrepareForUpdate, if set, are the kind's own changes to an
	// object the main endpoint is about to store, after the shared ones.
	PrepareForCreate func(ctx context.Context, obj T)
	PrepareForUpdate func(ctx context.Context, obj, old T)
	// ClusterScoped is set for kinds that live outside namespaces (NodeImage).
	ClusterScoped bool
	// Versions are the group/versions that serve the kind, for the managed-fields
	// reset sets.
	Versions []fieldpath.APIVersion

	Validate             func(obj T) field.ErrorList
	ValidateUpdate       func(obj, old T) field.ErrorList
	ValidateStatusUpdate func(obj, old T) field.ErrorList
	// ErrorPaths, if set, rewrites the hub's field paths into those of the version the
	// request used, where the shapes differ, so errors name the field the user wrote.
	ErrorPaths func(version string, errs field.ErrorList) field.ErrorList
}

func (k Kind[T]) inRequestVersion(ctx context.Context, errs field.ErrorList) field.ErrorList {
	if k.ErrorPaths == nil || len(errs) == 0 {
		return errs
	}
	if info, ok := genericapirequest.RequestInfoFrom(ctx); ok {
		return k.ErrorPaths(info.APIVersion, errs)
	}
	return errs
}

// podTemplate is the pod template whose fields of disabled kube features are dropped:
// PodTemplate's, else Templates'; nil for a kind with neither.
func (k Kind[T]) podTemplate(obj T) *corev1.PodTemplateSpec {
	switch {
	case k.PodTemplate != nil:
		return k.PodTemplate(obj)
	case k.Templates != nil:
		tmpl, _ := k.Templates(obj)
		return tmpl
	}
	return nil
}

type strategy[T Object] struct {
	runtime.ObjectTyper
	names.NameGenerator
	kind Kind[T]
}

// NewStrategy returns the strategy of a workload's main endpoint.
func NewStrategy[T Object](typer runtime.ObjectTyper, k Kind[T]) Strategy {
	return strategy[T]{typer, names.SimpleNameGenerator, k}
}

func (s strategy[T]) NamespaceScoped() bool { return !s.kind.ClusterScoped }

// DefaultGarbageCollectionPolicy deletes pods in the background, as for Deployments.
func (strategy[T]) DefaultGarbageCollectionPolicy(context.Context) rest.GarbageCollectionPolicy {
	return rest.DeleteDependents
}

// GetResetFields: the main endpoint never writes status.
func (s strategy[T]) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return ResetStatus(s.kind.Versions)
}

// PrepareForCreate clears status, starts the generation at 1 and drops the pod
// template's fields of disabled kube features, then applies the kind's own preparation.
func (s strategy[T]) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	o := obj.(T)
	s.kind.ResetStatus(o)
	o.SetGeneration(1)
	DropDisabledTemplateFields(s.kind.podTemplate(o), nil)
	if s.kind.PrepareForCreate != nil {
		s.kind.PrepareForCreate(ctx, o)
	}
}

// PrepareForUpdate keeps the stored status, drops the pod template's fields of
// disabled kube features the stored template does not use, and bumps the generation on
// spec changes, then applies the kind's own preparation.
func (s strategy[T]) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	o, prev := obj.(T), old.(T)
	s.kind.KeepStatus(o, prev)
	DropDisabledTemplateFields(s.kind.podTemplate(o), s.kind.podTemplate(prev))
	o.SetGeneration(prev.GetGeneration())
	if s.kind.SpecChanged(o, prev) {
		o.SetGeneration(prev.GetGeneration() + 1)
	}
	if s.kind.PrepareForUpdate != nil {
		s.kind.PrepareForUpdate(ctx, o, prev)
	}
}

func (s strategy[T]) Validate(ctx context.Context, obj runtime.Object) field.ErrorList {
	return s.kind.inRequestVersion(ctx, s.kind.Validate(obj.(T)))
}

func (s strategy[T]) WarningsOnCreate(ctx context.Context, obj runtime.Object) []string {
	var warnings []string
	if s.kind.Templates != nil {
		tmpl, claims := s.kind.Templates(obj.(T))
		warnings = TemplateWarnings(ctx, tmpl, nil, claims)
	}
	if s.kind.Warnings != nil {
		warnings = append(warnings, s.kind.Warnings(obj.(T))...)
	}
	return warnings
}

func (strategy[T]) Canonicalize(runtime.Object) {}

func (strategy[T]) AllowCreateOnUpdate() bool { return false }

func (strategy[T]) AllowUnconditionalUpdate() bool { return true }

func (s strategy[T]) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	return s.kind.inRequestVersion(ctx, s.kind.ValidateUpdate(obj.(T), old.(T)))
}

// WarningsOnUpdate warns only when the spec changed.
func (s strategy[T]) WarningsOnUpdate(ctx context.Context, obj, old runtime.Object) []string {
	o, prev := obj.(T), old.(T)
	if o.GetGeneration() == prev.GetGeneration() {
		return nil
	}
	var warnings []string
	if s.kind.Templates != nil {
		tmpl, claims := s.kind.Templates(o)
		oldTmpl, _ := s.kind.Templates(prev)
		warnings = TemplateWarnings(ctx, tmpl, oldTmpl, claims)
	}
	if s.kind.Warnings != nil {
		warnings = append(warnings, s.kind.Warnings(o)...)
	}
	return warnings
}

// statusStrategy implements a workload's status endpoint: it writes status only.
type statusStrategy[T Object] struct {
	strategy[T]
}

// NewStatusStrategy returns the strategy of a workload's status endpoint.
func NewStatusStrategy[T Object](typer runtime.ObjectTyper, k Kind[T]) StatusStrategy {
	return statusStrategy[T]{strategy[T]{typer, names.SimpleNameGenerator, k}}
}

// GetResetFields: the status endpoint never writes spec.
func (s statusStrategy[T]) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return ResetSpec(s.kind.Versions)
}

// PrepareForUpdate keeps everything but status as stored.
func (s statusStrategy[T]) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	o, prev := obj.(T), old.(T)
	s.kind.KeepSpec(o, prev)
	metav1.ResetObjectMetaForStatus(o, prev)
}

func (s statusStrategy[T]) ValidateUpdate(_ context.Context, obj, old runtime.Object) field.ErrorList {
	return s.kind.ValidateStatusUpdate(obj.(T), old.(T))
}

func (statusStrategy[T]) WarningsOnUpdate(context.Context, runtime.Object, runtime.Object) []string {
	return nil
}
