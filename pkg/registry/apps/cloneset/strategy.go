// Package cloneset holds the create, update and status strategies of CloneSets.
package cloneset

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

// strategy implements the behaviour of the main clonesets endpoint.
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
	cs := obj.(*apps.CloneSet)
	cs.Status = apps.CloneSetStatus{}
	cs.Generation = 1
}

// PrepareForUpdate keeps the stored status and bumps the generation on spec changes.
func (strategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	cs, oldCS := obj.(*apps.CloneSet), old.(*apps.CloneSet)
	cs.Status = oldCS.Status
	workload.BumpGenerationOnSpecChange(&cs.ObjectMeta, &oldCS.ObjectMeta, !apiequality.Semantic.DeepEqual(cs.Spec, oldCS.Spec))
}

func (strategy) Validate(_ context.Context, obj runtime.Object) field.ErrorList {
	return validation.ValidateCloneSet(obj.(*apps.CloneSet))
}

func (strategy) WarningsOnCreate(ctx context.Context, obj runtime.Object) []string {
	cs := obj.(*apps.CloneSet)
	return workload.TemplateWarnings(ctx, &cs.Spec.Template, nil, cs.Spec.VolumeClaimTemplates)
}

func (strategy) Canonicalize(runtime.Object) {}

func (strategy) AllowCreateOnUpdate() bool { return false }

func (strategy) AllowUnconditionalUpdate() bool { return true }

func (strategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) field.ErrorList {
	return validation.ValidateCloneSetUpdate(obj.(*apps.CloneSet), old.(*apps.CloneSet))
}

func (strategy) WarningsOnUpdate(ctx context.Context, obj, old runtime.Object) []string {
	cs, oldCS := obj.(*apps.CloneSet), old.(*apps.CloneSet)
	if cs.Generation == oldCS.Generation {
		return nil
	}
	return workload.TemplateWarnings(ctx, &cs.Spec.Template, &oldCS.Spec.Template, cs.Spec.VolumeClaimTemplates)
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
	cs, oldCS := obj.(*apps.CloneSet), old.(*apps.CloneSet)
	cs.Spec = oldCS.Spec
	workload.KeepMetadataForStatusUpdate(&cs.ObjectMeta, &oldCS.ObjectMeta)
}

func (statusStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) field.ErrorList {
	return validation.ValidateCloneSetStatusUpdate(obj.(*apps.CloneSet), old.(*apps.CloneSet))
}

func (statusStrategy) WarningsOnUpdate(context.Context, runtime.Object, runtime.Object) []string {
	return nil
}
