// Package resource describes each served resource once — its group and versions, names,
// accessors, validation, printed columns and optional subresources — and builds every
// endpoint from that description. Adding a kind is its types, its validation and one
// Kind value; nothing here or in pkg/apiserver changes.
package resource

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

// Kind describes one resource whose hub type is T, with a spec of type Spec and a
// status of type Status. Every resource has a main endpoint and a status subresource;
// scale, rollback and other subresources are optional.
type Kind[T workload.Object, Spec, Status any] struct {
	// Group and Versions: the API group and the versions that serve the resource,
	// most preferred first (the group's install package sets the storage version).
	Group    string
	Versions []string
	// Plural and Singular are the resource names; ShortNames and Categories are
	// announced in discovery (`kubectl get clone`, `kubectl get kruise`).
	Plural, Singular       string
	ShortNames, Categories []string
	// ClusterScoped is set for resources outside namespaces (NodeImage, SidecarSet).
	ClusterScoped bool

	New     func() T
	NewList func() runtime.Object
	// Spec and Status point at the object's spec and status: from them the shared
	// strategies derive resetting status on create, keeping status on spec writes,
	// keeping spec on status writes and bumping the generation on spec changes.
	Spec   func(obj T) *Spec
	Status func(obj T) *Status
	// Templates, if set, returns the pod template and claim templates, for kube's
	// warnings about them; its pod template also has the fields of disabled kube
	// features dropped.
	Templates func(obj T) (*corev1.PodTemplateSpec, []corev1.PersistentVolumeClaim)
	// PodTemplate, if set, is the pod template whose fields of disabled kube features
	// are dropped, for a kind without Templates (AdvancedCronJob: its runs' pods get
	// the warnings when the runs are created).
	PodTemplate func(obj T) *corev1.PodTemplateSpec
	// Warnings, if set, are the kind's own warnings.
	Warnings func(obj T) []string
	// PrepareForCreate and PrepareForUpdate, if set, are the kind's own changes to an
	// object its main endpoint is about to store, after the shared ones (status,
	// generation) and before validation; the context carries the request's user.
	PrepareForCreate func(ctx context.Context, obj T)
	PrepareForUpdate func(ctx context.Context, obj, old T)

	Validate             func(obj T) field.ErrorList
	ValidateUpdate       func(obj, old T) field.ErrorList
	ValidateStatusUpdate func(obj, old T) field.ErrorList
	// ErrorPaths, if set, renames hub field paths to those of the request's version.
	ErrorPaths func(version string, errs field.ErrorList) field.ErrorList

	// Table prints the resource (`kubectl get`).
	Table rest.TableConvertor
	// Scale, if set, serves the scale subresource (and tells deletion protection how
	// many replicas the object still asks for).
	Scale *Scale[T]
	// Active, for kinds that run pods without replicas (DaemonSet), tells deletion
	// protection how many pods the object still runs. Ignored when Scale is set.
	Active *Active[T]
	// Rollback, if set, serves the rollback subresource.
	Rollback *Rollback[T]
	// Subresources, if set, returns further subresources by name (e.g. "pullsecrets"),
	// served on the main endpoint's store.
	Subresources func(store *genericregistry.Store, deps Deps) (map[string]rest.Storage, error)
}

// Scale reads and writes a workload's replicas.
type Scale[T any] struct {
	// Replicas returns spec.replicas, allocating it when unset (it is never unset once
	// defaulted); the scale subresource writes through it.
	Replicas       func(obj T) *int32
	StatusReplicas func(obj T) int32
	Selector       func(obj T) *metav1.LabelSelector
}

// Active counts the pods an object without replicas still runs or is about to run.
type Active[T any] struct {
	// Field names where the count comes from, for messages (e.g. "status.desiredNumberScheduled").
	Field string
	Count func(obj T) int32
}

// Rollback reads a <Kind>Rollback request; the template a revision restores is the
// one the kind's Templates returns.
type Rollback[T any] struct {
	// Kind of the request body, e.g. CloneSetRollback.
	Kind string
	New  func() runtime.Object
	// Request returns the request's name and revision, and what is invalid in it.
	Request func(obj runtime.Object) (name string, toRevision int64, errs field.ErrorList)
}

// Descriptor is a Kind of any type, as the installer and admission see it.
type Descriptor interface {
	// GroupResource names the resource.
	GroupResource() schema.GroupResource
	// ServedVersions are the versions that serve it, most preferred first.
	ServedVersions() []string
	// Endpoints builds the main endpoint and every subresource on deps' storage.
	Endpoints(deps Deps) (Endpoints, error)
	// NewObject returns an empty hub object; Strategies the rules the endpoints apply
	// (for tests that exercise every kind).
	NewObject() runtime.Object
	Strategies(typer runtime.ObjectTyper) (workload.Strategy, workload.StatusStrategy)
	// ActivePods is how many pods obj still asks for or runs, and the field that says
	// so: spec.replicas for kinds with scale, the kind's Active count otherwise; false
	// for kinds that run no pods.
	ActivePods(obj runtime.Object) (count int32, field string, ok bool)
}

var _ Descriptor = Kind[workload.Object, struct{}, struct{}]{}

// GroupResource implements Descriptor.
func (k Kind[T, Spec, Status]) GroupResource() schema.GroupResource {
	return schema.GroupResource{Group: k.Group, Resource: k.Plural}
}

// NewObject implements Descriptor.
func (k Kind[T, Spec, Status]) NewObject() runtime.Object { return k.New() }

// ServedVersions implements Descriptor.
func (k Kind[T, Spec, Status]) ServedVersions() []string { return k.Versions }

// ActivePods implements Descriptor.
func (k Kind[T, Spec, Status]) ActivePods(obj runtime.Object) (int32, string, bool) {
	o, ok := obj.(T)
	switch {
	case !ok:
		return 0, "", false
	case k.Scale != nil:
		// Replicas allocates an unset field: read it from a copy.
		return *k.Scale.Replicas(o.DeepCopyObject().(T)), "spec.replicas", true
	case k.Active != nil:
		return k.Active.Count(o), k.Active.Field, true
	}
	return 0, "", false
}
