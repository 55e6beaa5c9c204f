package podwebhook

import (
	"context"
	"fmt"

	admissionv1 "k8s.io/api/admission/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/restmapper"
)

// A budget holds back disruptions of an application that is meant to keep running. The
// pods of a workload being deleted are not that: the garbage collector deletes them
// (every pod of a Deployment deleted with kubectl's default background propagation,
// once its ReplicaSet is gone), and refusing it would leave them running for ever, the
// collector retrying each delete with a growing backoff. So a delete or eviction of a
// pod whose owners are all gone or being deleted passes, whoever asks, as OpenKruise's
// budget lets such pods go (it counts a deleted workload's replicas as none).

// GarbageCollectorUser is the user kube-controller-manager's garbage collector deletes
// with when it runs with --use-service-account-credentials (as the local stack and
// kubeadm run it). It deletes a pod only when the pod's owners are all gone or being
// deleted in the foreground, so its deletes pass without a lookup; kube-apiserver does
// not even call the webhook for them when no other handler needs them
// (BudgetCallClause). A kube-controller-manager on its own credentials cannot be told
// from its other controllers: its collector's deletes pass by the owners' lookup.
const GarbageCollectorUser = "system:serviceaccount:kube-system:generic-garbage-collector"

// byGarbageCollector reports whether req is a delete the garbage collector makes.
func byGarbageCollector(req *admissionv1.AdmissionRequest) bool {
	return req.Operation == admissionv1.Delete && req.SubResource == "" && req.UserInfo.Username == GarbageCollectorUser
}

// OwnersGoneFunc reports whether every owner of an object of namespace ns is gone (no
// object of its name, or another one than the reference's UID) or being deleted;
// false for an object without owners.
type OwnersGoneFunc func(ctx context.Context, ns string, owners []metav1.OwnerReference) (bool, error)

// OwnersGone is an OwnersGoneFunc reading each owner's metadata through kube-apiserver
// (one GET each, only when a budget would refuse the disruption), its resource found by
// discovery (cached, read again when a kind is not found: a CRD created since).
func OwnersGone(client discovery.DiscoveryInterface, md metadata.Interface) OwnersGoneFunc {
	l := &ownerLookup{mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(client)), metadata: md}
	return l.allGone
}

type ownerLookup struct {
	mapper   meta.ResettableRESTMapper
	metadata metadata.Interface
}

func (l *ownerLookup) allGone(ctx context.Context, ns string, owners []metav1.OwnerReference) (bool, error) {
	if len(owners) == 0 {
		return false, nil
	}
	for i := range owners {
		gone, err := l.gone(ctx, ns, &owners[i])
		if err != nil || !gone {
			return false, err
		}
	}
	return true, nil
}

// gone reads one owner.
func (l *ownerLookup) gone(ctx context.Context, ns string, ref *metav1.OwnerReference) (bool, error) {
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return false, fmt.Errorf("owner %s %s: %w", ref.Kind, ref.Name, err)
	}
	gk := schema.GroupKind{Group: gv.Group, Kind: ref.Kind}
	mapping, err := l.mapper.RESTMapping(gk, gv.Version)
	if meta.IsNoMatchError(err) {
		l.mapper.Reset()
		mapping, err = l.mapper.RESTMapping(gk, gv.Version)
	}
	if meta.IsNoMatchError(err) {
		// A reference written in a version no longer served names the same object.
		mapping, err = l.mapper.RESTMapping(gk)
	}
	if err != nil {
		return false, fmt.Errorf("the resource of owner %s %s: %w", ref.Kind, ref.Name, err)
	}
	resource := l.metadata.Resource(mapping.Resource)
	var obj *metav1.PartialObjectMetadata
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		obj, err = resource.Namespace(ns).Get(ctx, ref.Name, metav1.GetOptions{})
	} else {
		obj, err = resource.Get(ctx, ref.Name, metav1.GetOptions{})
	}
	switch {
	case apierrors.IsNotFound(err):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("reading owner %s %s: %w", ref.Kind, ref.Name, err)
	}
	return obj.UID != ref.UID || obj.DeletionTimestamp != nil, nil
}
