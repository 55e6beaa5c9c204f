// Package typedkind is how a controller reaches objects of a kind it does not own
// through that kind's generated typed client and lister: the runs of an
// AdvancedCronJob (Job, BroadcastJob, ImageListPullJob) and the subsets of a
// UnitedDeployment (CloneSet, Advanced StatefulSet, StatefulSet, Deployment). Each of
// those controllers adds only what differs between its kinds (how a run ends, how a
// subset is built); reading and writing go through Kind. A controller that only reads
// one object of a kind it names (workloadtarget, PersistentPodState) takes the
// client's or lister's Get with a generic helper instead.
package typedkind

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Object is a typed object's pointer (*batchv1.Job, *v1beta1.CloneSet).
type Object interface {
	metav1.Object
	runtime.Object
}

// Client is the part of a generated typed client, for one namespace, that controllers
// use; every generated client has it.
type Client[T Object] interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error)
	Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error)
	Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
}

// Lister is the part of a generated lister, for one namespace, that controllers use.
type Lister[T Object] interface {
	List(selector labels.Selector) ([]T, error)
	Get(name string) (T, error)
}

// Kind is one typed kind: what it is, its client (live reads and writes) and its
// lister (the informer's cache). Lister is nil for a controller that reads live only.
type Kind[T Object] struct {
	GVK    schema.GroupVersionKind
	Client func(namespace string) Client[T]
	Lister func(namespace string) Lister[T]
}

// New is the Kind whose objects client (a generated clientset's namespaced getter, such
// as kruiseClient.AppsV1beta1().CloneSets) reaches:
//
//	typedkind.New[*v1beta1.CloneSet](gvk, kruiseClient.AppsV1beta1().CloneSets)
func New[T Object, C Client[T]](gvk schema.GroupVersionKind, client func(namespace string) C) Kind[T] {
	return Kind[T]{GVK: gvk, Client: func(ns string) Client[T] { return client(ns) }}
}

// Cached is k with the informer's lister (a generated lister's namespaced getter, such
// as cloneSetLister.CloneSets).
func Cached[T Object, L Lister[T]](k Kind[T], lister func(namespace string) L) Kind[T] {
	k.Lister = func(ns string) Lister[T] { return lister(ns) }
	return k
}
