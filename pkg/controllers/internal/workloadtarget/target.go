// Package workloadtarget reads the workload a Kruise object names by apiVersion, kind
// and name (a PodUnavailableBudget's or a WorkloadSpread's targetRef): its replicas,
// selector and whether it controls its pods itself.
package workloadtarget

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/typedkind"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// Target is what a referring object needs of a workload.
type Target struct {
	UID      types.UID
	Replicas int32
	Selector *metav1.LabelSelector
	// OwnsPodsDirectly: the workload is its pods' controller (not a Deployment,
	// whose pods belong to its ReplicaSets).
	OwnsPodsDirectly bool
	// Object is the workload as read (a typed object), for fields beyond the above
	// (a WorkloadSpread's targetFilter.replicasPathList).
	Object runtime.Object
}

// Client reads targets with the typed clients, live (one GET per sync).
type Client struct {
	Kube   kubernetes.Interface
	Kruise kruiseclient.Interface
}

func replicas(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}

// describe is what one kind of target says of itself, beyond its UID and object.
type describe[T typedkind.Object] func(T) Target

// reader reads a target of one kind, live.
type reader interface {
	get(ctx context.Context, ns, name string) (*Target, error)
}

type kindReader[T typedkind.Object] struct {
	kind     typedkind.Kind[T]
	describe describe[T]
}

func (r kindReader[T]) get(ctx context.Context, ns, name string) (*Target, error) {
	o, err := r.kind.Client(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	t := r.describe(o)
	t.Object, t.UID = o, o.GetUID()
	return &t, nil
}

func readerOf[T typedkind.Object](k typedkind.Kind[T], d describe[T]) reader {
	return kindReader[T]{kind: k, describe: d}
}

// readers are the kinds a targetRef may name, by group and kind (any version).
func (t Client) readers() map[schema.GroupKind]reader {
	kruiseApps, kubeApps := t.Kruise.AppsV1beta1(), t.Kube.AppsV1()
	return map[schema.GroupKind]reader{
		{Group: "apps.kruise.io", Kind: "CloneSet"}: readerOf(typedkind.New[*v1beta1.CloneSet](v1beta1.SchemeGroupVersion.WithKind("CloneSet"), kruiseApps.CloneSets),
			func(o *v1beta1.CloneSet) Target {
				return Target{Replicas: replicas(o.Spec.Replicas), Selector: o.Spec.Selector, OwnsPodsDirectly: true}
			}),
		{Group: "apps.kruise.io", Kind: "StatefulSet"}: readerOf(typedkind.New[*v1beta1.StatefulSet](v1beta1.SchemeGroupVersion.WithKind("StatefulSet"), kruiseApps.StatefulSets),
			func(o *v1beta1.StatefulSet) Target {
				return Target{Replicas: replicas(o.Spec.Replicas), Selector: o.Spec.Selector, OwnsPodsDirectly: true}
			}),
		// A Deployment's pods belong to its ReplicaSets.
		{Group: "apps", Kind: "Deployment"}: readerOf(typedkind.New[*appsv1.Deployment](appsv1.SchemeGroupVersion.WithKind("Deployment"), kubeApps.Deployments),
			func(o *appsv1.Deployment) Target {
				return Target{Replicas: replicas(o.Spec.Replicas), Selector: o.Spec.Selector}
			}),
		{Group: "apps", Kind: "ReplicaSet"}: readerOf(typedkind.New[*appsv1.ReplicaSet](appsv1.SchemeGroupVersion.WithKind("ReplicaSet"), kubeApps.ReplicaSets),
			func(o *appsv1.ReplicaSet) Target {
				return Target{Replicas: replicas(o.Spec.Replicas), Selector: o.Spec.Selector, OwnsPodsDirectly: true}
			}),
		{Group: "apps", Kind: "StatefulSet"}: readerOf(typedkind.New[*appsv1.StatefulSet](appsv1.SchemeGroupVersion.WithKind("StatefulSet"), kubeApps.StatefulSets),
			func(o *appsv1.StatefulSet) Target {
				return Target{Replicas: replicas(o.Spec.Replicas), Selector: o.Spec.Selector, OwnsPodsDirectly: true}
			}),
		// A Job's replicas are its parallelism.
		{Group: "batch", Kind: "Job"}: readerOf(typedkind.New[*batchv1.Job](batchv1.SchemeGroupVersion.WithKind("Job"), t.Kube.BatchV1().Jobs),
			func(o *batchv1.Job) Target {
				return Target{Replicas: replicas(o.Spec.Parallelism), Selector: o.Spec.Selector, OwnsPodsDirectly: true}
			}),
	}
}

// Get reads the workload: CloneSet and Advanced StatefulSet of apps.kruise.io;
// Deployment, ReplicaSet and StatefulSet of apps; Job of batch (its parallelism).
func (t Client) Get(ctx context.Context, ns, apiVersion, kind, name string) (*Target, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, fmt.Errorf("targetRef.apiVersion: %w", err)
	}
	gk := gv.WithKind(kind).GroupKind()
	r, ok := t.readers()[gk]
	if !ok {
		return nil, fmt.Errorf("targetRef names %s, which cannot be followed", gk)
	}
	return r.get(ctx, ns, name)
}
