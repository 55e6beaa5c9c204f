// Package workloadtarget reads the workload a Kruise object names by apiVersion, kind
// and name (a PodUnavailableBudget's or a WorkloadSpread's targetRef): its replicas,
// selector and whether it controls its pods itself.
package workloadtarget

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

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

// Get reads the workload: CloneSet and Advanced StatefulSet of apps.kruise.io;
// Deployment, ReplicaSet and StatefulSet of apps; Job of batch (its parallelism).
func (t Client) Get(ctx context.Context, ns, apiVersion, kind, name string) (*Target, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, fmt.Errorf("targetRef.apiVersion: %w", err)
	}
	opts := metav1.GetOptions{}
	switch gk := gv.WithKind(kind).GroupKind(); gk.String() {
	case "CloneSet.apps.kruise.io":
		o, err := t.Kruise.AppsV1beta1().CloneSets(ns).Get(ctx, name, opts)
		if err != nil {
			return nil, err
		}
		return &Target{Object: o, UID: o.UID, Replicas: replicas(o.Spec.Replicas), Selector: o.Spec.Selector, OwnsPodsDirectly: true}, nil
	case "StatefulSet.apps.kruise.io":
		o, err := t.Kruise.AppsV1beta1().StatefulSets(ns).Get(ctx, name, opts)
		if err != nil {
			return nil, err
		}
		return &Target{Object: o, UID: o.UID, Replicas: replicas(o.Spec.Replicas), Selector: o.Spec.Selector, OwnsPodsDirectly: true}, nil
	case "Deployment.apps":
		o, err := t.Kube.AppsV1().Deployments(ns).Get(ctx, name, opts)
		if err != nil {
			return nil, err
		}
		return &Target{Object: o, UID: o.UID, Replicas: replicas(o.Spec.Replicas), Selector: o.Spec.Selector}, nil
	case "ReplicaSet.apps":
		o, err := t.Kube.AppsV1().ReplicaSets(ns).Get(ctx, name, opts)
		if err != nil {
			return nil, err
		}
		return &Target{Object: o, UID: o.UID, Replicas: replicas(o.Spec.Replicas), Selector: o.Spec.Selector, OwnsPodsDirectly: true}, nil
	case "StatefulSet.apps":
		o, err := t.Kube.AppsV1().StatefulSets(ns).Get(ctx, name, opts)
		if err != nil {
			return nil, err
		}
		return &Target{Object: o, UID: o.UID, Replicas: replicas(o.Spec.Replicas), Selector: o.Spec.Selector, OwnsPodsDirectly: true}, nil
	case "Job.batch":
		o, err := t.Kube.BatchV1().Jobs(ns).Get(ctx, name, opts)
		if err != nil {
			return nil, err
		}
		return &Target{Object: o, UID: o.UID, Replicas: replicas(o.Spec.Parallelism), Selector: o.Spec.Selector, OwnsPodsDirectly: true}, nil
	default:
		return nil, fmt.Errorf("targetRef names %s, which cannot be followed", gk)
	}
}
