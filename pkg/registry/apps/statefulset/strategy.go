// Package statefulset holds the create, update and status strategies of StatefulSets.
package statefulset

import (
	"context"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage/names"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

// strategy implements the behaviour of the main statefulsets endpoint.
type strategy struct {
	runtime.ObjectTyper
	names.NameGenerator
}

// NewStrategy returns the strategy of the main endpoint.
func NewStrategy(typer runtime.ObjectTyper) workload.Strategy {
	return strategy{typer, names.SimpleNameGenerator}
}

var (
	_ rest.RESTCreateUpdateStrategy        = strategy{}
	_ rest.ResetFieldsStrategy             = strategy{}
	_ rest.GarbageCollectionDeleteStrategy = strategy{}
)

func (strategy) NamespaceScoped() bool { return true }

// DefaultGarbageCollectionPolicy deletes pods in the background, as for Deployments.
func (strategy) DefaultGarbageCollectionPolicy(context.Context) rest.GarbageCollectionPolicy {
	return rest.DeleteDependents
}

// GetResetFields: the main endpoint never writes status.
func (strategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return workload.ResetStatus()
}

// PrepareForCreate clears status and starts the generation at 1.
func (strategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	ss := obj.(*apps.StatefulSet)
	ss.Status = apps.StatefulSetStatus{}
	ss.Generation = 1
}

// PrepareForUpdate keeps the stored status and bumps the generation on spec changes.
func (strategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	ss, oldSS := obj.(*apps.StatefulSet), old.(*apps.StatefulSet)
	ss.Status = oldSS.Status
	workload.BumpGenerationOnSpecChange(&ss.ObjectMeta, &oldSS.ObjectMeta, !apiequality.Semantic.DeepEqual(ss.Spec, oldSS.Spec))
}

func (strategy) Validate(_ context.Context, obj runtime.Object) field.ErrorList {
	return validation.ValidateStatefulSet(obj.(*apps.StatefulSet))
}

func (strategy) WarningsOnCreate(ctx context.Context, obj runtime.Object) []string {
	ss := obj.(*apps.StatefulSet)
	return workload.TemplateWarnings(ctx, &ss.Spec.Template, nil, ss.Spec.VolumeClaimTemplates)
}

func (strategy) Canonicalize(runtime.Object) {}

func (strategy) AllowCreateOnUpdate() bool { return false }

func (strategy) AllowUnconditionalUpdate() bool { return true }

func (strategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) field.ErrorList {
	return validation.ValidateStatefulSetUpdate(obj.(*apps.StatefulSet), old.(*apps.StatefulSet))
}

func (strategy) WarningsOnUpdate(ctx context.Context, obj, old runtime.Object) []string {
	ss, oldSS := obj.(*apps.StatefulSet), old.(*apps.StatefulSet)
	if ss.Generation == oldSS.Generation {
		return nil
	}
	return workload.TemplateWarnings(ctx, &ss.Spec.Template, &oldSS.Spec.Template, ss.Spec.VolumeClaimTemplates)
}

// statusStrategy implements the status endpoint: it writes status and nothing else.
type statusStrategy struct {
	strategy
}

// NewStatusStrategy returns the strategy of the status endpoint.
func NewStatusStrategy(typer runtime.ObjectTyper) workload.StatusStrategy {
	return statusStrategy{strategy{typer, names.SimpleNameGenerator}}
}

var _ rest.ResetFieldsStrategy = statusStrategy{}

// GetResetFields: the status endpoint never writes spec or metadata.
func (statusStrategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return workload.ResetSpec()
}

// PrepareForUpdate keeps everything but status as stored.
func (statusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	ss, oldSS := obj.(*apps.StatefulSet), old.(*apps.StatefulSet)
	ss.Spec = oldSS.Spec
	workload.KeepMetadataForStatusUpdate(&ss.ObjectMeta, &oldSS.ObjectMeta)
}

func (statusStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) field.ErrorList {
	return validation.ValidateStatefulSetStatusUpdate(obj.(*apps.StatefulSet), old.(*apps.StatefulSet))
}

func (statusStrategy) WarningsOnUpdate(context.Context, runtime.Object, runtime.Object) []string {
	return nil
}
