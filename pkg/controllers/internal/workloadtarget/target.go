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

// scaleOf is where a kind of target keeps its replicas and selector.
type scaleOf[T typedkind.Object] func(T) (replicas *int32, selector *metav1.LabelSelector)

// reader reads a target of one kind, live.
type reader interface {
	get(ctx context.Context, ns, name string) (*Target, error)
}

type kindReader[T typedkind.Object] struct {
	kind             typedkind.Kind[T]
	scale            scaleOf[T]
	ownsPodsDirectly bool
}

func (r kindReader[T]) get(ctx context.Context, ns, name string) (*Target, error) {
	o, err := r.kind.Client(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	n, sel := r.scale(o)
	return &Target{Object: o, UID: o.GetUID(), Replicas: replicas(n), Selector: sel, OwnsPodsDirectly: r.ownsPodsDirectly}, nil
}

func readerOf[T typedkind.Object](k typedkind.Kind[T], ownsPodsDirectly bool, scale scaleOf[T]) reader {
	return kindReader[T]{kind: k, scale: scale, ownsPodsDirectly: ownsPodsDirectly}
}

// readers are the kinds a targetRef may name, by group and kind (any version). Every
// kind but Deployment controls its pods itself (a Deployment's belong to its
// ReplicaSets); a Job's replicas are its parallelism.
func (t Client) readers() map[schema.GroupKind]reader {
	kruiseApps, kubeApps := t.Kruise.AppsV1beta1(), t.Kube.AppsV1()
	cloneSet := v1beta1.SchemeGroupVersion.WithKind("CloneSet")
	asts := v1beta1.SchemeGroupVersion.WithKind("StatefulSet")
	deployment, replicaSet := appsv1.SchemeGroupVersion.WithKind("Deployment"), appsv1.SchemeGroupVersion.WithKind("ReplicaSet")
	sts, job := appsv1.SchemeGroupVersion.WithKind("StatefulSet"), batchv1.SchemeGroupVersion.WithKind("Job")
	return map[schema.GroupKind]reader{
		cloneSet.GroupKind(): readerOf(typedkind.New[*v1beta1.CloneSet](cloneSet, kruiseApps.CloneSets), true,
			func(o *v1beta1.CloneSet) (*int32, *metav1.LabelSelector) { return o.Spec.Replicas, o.Spec.Selector }),
		asts.GroupKind(): readerOf(typedkind.New[*v1beta1.StatefulSet](asts, kruiseApps.StatefulSets), true,
			func(o *v1beta1.StatefulSet) (*int32, *metav1.LabelSelector) { return o.Spec.Replicas, o.Spec.Selector }),
		deployment.GroupKind(): readerOf(typedkind.New[*appsv1.Deployment](deployment, kubeApps.Deployments), false,
			func(o *appsv1.Deployment) (*int32, *metav1.LabelSelector) { return o.Spec.Replicas, o.Spec.Selector }),
		replicaSet.GroupKind(): readerOf(typedkind.New[*appsv1.ReplicaSet](replicaSet, kubeApps.ReplicaSets), true,
			func(o *appsv1.ReplicaSet) (*int32, *metav1.LabelSelector) { return o.Spec.Replicas, o.Spec.Selector }),
		sts.GroupKind(): readerOf(typedkind.New[*appsv1.StatefulSet](sts, kubeApps.StatefulSets), true,
			func(o *appsv1.StatefulSet) (*int32, *metav1.LabelSelector) { return o.Spec.Replicas, o.Spec.Selector }),
		job.GroupKind(): readerOf(typedkind.New[*batchv1.Job](job, t.Kube.BatchV1().Jobs), true,
			func(o *batchv1.Job) (*int32, *metav1.LabelSelector) { return o.Spec.Parallelism, o.Spec.Selector }),
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
