package podunavailablebudget

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	policyv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// target is what a budget needs of the workload its targetRef names.
type target struct {
	UID      types.UID
	Replicas int32
	Selector *metav1.LabelSelector
	// OwnsPodsDirectly: the workload is its pods' controller (not a Deployment,
	// whose pods belong to its ReplicaSets).
	OwnsPodsDirectly bool
}

// targetReader reads a budget's target.
type targetReader interface {
	Get(ctx context.Context, namespace string, ref *policyv1beta1.TargetReference) (*target, error)
}

// clientTargets reads targets with the typed clients.
type clientTargets struct {
	kube   kubernetes.Interface
	kruise kruiseclient.Interface
}

func replicas(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}

// Get reads the workload ref names: CloneSet and Advanced StatefulSet of
// apps.kruise.io; Deployment, ReplicaSet and StatefulSet of apps.
func (t clientTargets) Get(ctx context.Context, ns string, ref *policyv1beta1.TargetReference) (*target, error) {
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return nil, fmt.Errorf("targetRef.apiVersion: %w", err)
	}
	opts := metav1.GetOptions{}
	switch gk := gv.WithKind(ref.Kind).GroupKind(); gk.String() {
	case "CloneSet.apps.kruise.io":
		o, err := t.kruise.AppsV1beta1().CloneSets(ns).Get(ctx, ref.Name, opts)
		if err != nil {
			return nil, err
		}
		return &target{UID: o.UID, Replicas: replicas(o.Spec.Replicas), Selector: o.Spec.Selector, OwnsPodsDirectly: true}, nil
	case "StatefulSet.apps.kruise.io":
		o, err := t.kruise.AppsV1beta1().StatefulSets(ns).Get(ctx, ref.Name, opts)
		if err != nil {
			return nil, err
		}
		return &target{UID: o.UID, Replicas: replicas(o.Spec.Replicas), Selector: o.Spec.Selector, OwnsPodsDirectly: true}, nil
	case "Deployment.apps":
		o, err := t.kube.AppsV1().Deployments(ns).Get(ctx, ref.Name, opts)
		if err != nil {
			return nil, err
		}
		return &target{UID: o.UID, Replicas: replicas(o.Spec.Replicas), Selector: o.Spec.Selector}, nil
	case "ReplicaSet.apps":
		o, err := t.kube.AppsV1().ReplicaSets(ns).Get(ctx, ref.Name, opts)
		if err != nil {
			return nil, err
		}
		return &target{UID: o.UID, Replicas: replicas(o.Spec.Replicas), Selector: o.Spec.Selector, OwnsPodsDirectly: true}, nil
	case "StatefulSet.apps":
		o, err := t.kube.AppsV1().StatefulSets(ns).Get(ctx, ref.Name, opts)
		if err != nil {
			return nil, err
		}
		return &target{UID: o.UID, Replicas: replicas(o.Spec.Replicas), Selector: o.Spec.Selector, OwnsPodsDirectly: true}, nil
	default:
		return nil, fmt.Errorf("targetRef names %s, which a budget cannot follow", gk)
	}
}
