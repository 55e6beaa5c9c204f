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

// read reads one target with get (a typed client's Get), taking its replicas and
// selector from scale.
func read[T typedkind.Object](ctx context.Context, get func(context.Context, string, metav1.GetOptions) (T, error),
	name string, ownsPodsDirectly bool, scale func(T) (*int32, *metav1.LabelSelector)) (*Target, error) {
	o, err := get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	n, sel := scale(o)
	return &Target{Object: o, UID: o.GetUID(), Replicas: replicas(n), Selector: sel, OwnsPodsDirectly: ownsPodsDirectly}, nil
}

// The kinds a targetRef may name, by group and kind (any version).
var (
	cloneSetKind         = schema.GroupKind{Group: v1beta1.GroupName, Kind: "CloneSet"}
	advancedStatefulKind = schema.GroupKind{Group: v1beta1.GroupName, Kind: "StatefulSet"}
	deploymentKind       = schema.GroupKind{Group: appsv1.GroupName, Kind: "Deployment"}
	replicaSetKind       = schema.GroupKind{Group: appsv1.GroupName, Kind: "ReplicaSet"}
	statefulSetKind      = schema.GroupKind{Group: appsv1.GroupName, Kind: "StatefulSet"}
	jobKind              = schema.GroupKind{Group: batchv1.GroupName, Kind: "Job"}
)

// Get reads the workload: CloneSet and Advanced StatefulSet of apps.kruise.io;
// Deployment, ReplicaSet and StatefulSet of apps; Job of batch (its parallelism).
// Every kind but Deployment controls its pods itself (a Deployment's belong to its
// ReplicaSets).
func (t Client) Get(ctx context.Context, ns, apiVersion, kind, name string) (*Target, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, fmt.Errorf("targetRef.apiVersion: %w", err)
	}
	switch gk := gv.WithKind(kind).GroupKind(); gk {
	case cloneSetKind:
		return read(ctx, t.Kruise.AppsV1beta1().CloneSets(ns).Get, name, true,
			func(o *v1beta1.CloneSet) (*int32, *metav1.LabelSelector) { return o.Spec.Replicas, o.Spec.Selector })
	case advancedStatefulKind:
		return read(ctx, t.Kruise.AppsV1beta1().StatefulSets(ns).Get, name, true,
			func(o *v1beta1.StatefulSet) (*int32, *metav1.LabelSelector) { return o.Spec.Replicas, o.Spec.Selector })
	case deploymentKind:
		return read(ctx, t.Kube.AppsV1().Deployments(ns).Get, name, false,
			func(o *appsv1.Deployment) (*int32, *metav1.LabelSelector) { return o.Spec.Replicas, o.Spec.Selector })
	case replicaSetKind:
		return read(ctx, t.Kube.AppsV1().ReplicaSets(ns).Get, name, true,
			func(o *appsv1.ReplicaSet) (*int32, *metav1.LabelSelector) { return o.Spec.Replicas, o.Spec.Selector })
	case statefulSetKind:
		return read(ctx, t.Kube.AppsV1().StatefulSets(ns).Get, name, true,
			func(o *appsv1.StatefulSet) (*int32, *metav1.LabelSelector) { return o.Spec.Replicas, o.Spec.Selector })
	case jobKind:
		return read(ctx, t.Kube.BatchV1().Jobs(ns).Get, name, true,
			func(o *batchv1.Job) (*int32, *metav1.LabelSelector) { return o.Spec.Parallelism, o.Spec.Selector })
	default:
		return nil, fmt.Errorf("targetRef names %s, which cannot be followed", gk)
	}
}
