package podwebhook

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	metadatafake "k8s.io/client-go/metadata/fake"
)

// resettableMapper is a fixed RESTMapper; resets counts how often the lookup asked
// discovery again.
type resettableMapper struct {
	*meta.DefaultRESTMapper
	resets int
}

func (m *resettableMapper) Reset() { m.resets++ }

func partial(apiVersion, kind, ns, name string, uid types.UID, deleting bool) *metav1.PartialObjectMetadata {
	p := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: apiVersion, Kind: kind},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: uid}}
	if deleting {
		p.DeletionTimestamp = &metav1.Time{}
		p.Finalizers = []string{"foregroundDeletion"}
	}
	return p
}

// An owner is gone when no object of its name exists or another one (another UID)
// does, and going when it has a deletionTimestamp; a pod goes only when every owner is
// gone or going. An owner of a kind discovery does not know is an error (the refusal
// stands), after asking discovery again.
func TestOwnersGone(t *testing.T) {
	rs := schema.GroupVersion{Group: "apps", Version: "v1"}.WithKind("ReplicaSet")
	node := schema.GroupVersion{Version: "v1"}.WithKind("Node")
	mapper := &resettableMapper{DefaultRESTMapper: meta.NewDefaultRESTMapper([]schema.GroupVersion{rs.GroupVersion(), node.GroupVersion()})}
	mapper.Add(rs, meta.RESTScopeNamespace)
	mapper.Add(node, meta.RESTScopeRoot)
	scheme := metadatafake.NewTestScheme()
	for _, gvk := range []schema.GroupVersionKind{rs, node} {
		scheme.AddKnownTypeWithName(gvk, &metav1.PartialObjectMetadata{})
	}
	md := metadatafake.NewSimpleMetadataClient(scheme,
		partial("apps/v1", "ReplicaSet", "ns", "live", "live-uid", false),
		partial("apps/v1", "ReplicaSet", "ns", "deleting", "deleting-uid", true),
		partial("apps/v1", "ReplicaSet", "ns", "recreated", "new-uid", false),
		partial("apps/v1", "ReplicaSet", "other", "elsewhere", "elsewhere-uid", false),
		partial("v1", "Node", "", "node-1", "node-uid", false),
	)
	l := &ownerLookup{mapper: mapper, metadata: md}
	ref := func(apiVersion, kind, name string, uid types.UID) metav1.OwnerReference {
		return metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: uid}
	}
	for _, tc := range []struct {
		name    string
		owners  []metav1.OwnerReference
		want    bool
		wantErr bool
	}{
		{name: "no owners", want: false},
		{name: "live owner", owners: []metav1.OwnerReference{ref("apps/v1", "ReplicaSet", "live", "live-uid")}},
		{name: "owner being deleted", owners: []metav1.OwnerReference{ref("apps/v1", "ReplicaSet", "deleting", "deleting-uid")}, want: true},
		{name: "owner gone", owners: []metav1.OwnerReference{ref("apps/v1", "ReplicaSet", "gone", "gone-uid")}, want: true},
		{name: "owner gone, another of its name since", owners: []metav1.OwnerReference{ref("apps/v1", "ReplicaSet", "recreated", "old-uid")}, want: true},
		{name: "an owner of another namespace's name does not count",
			owners: []metav1.OwnerReference{ref("apps/v1", "ReplicaSet", "elsewhere", "elsewhere-uid")}, want: true},
		{name: "a version no longer served names the same owner", owners: []metav1.OwnerReference{ref("apps/v1beta2", "ReplicaSet", "live", "live-uid")}},
		{name: "one owner gone, one live", owners: []metav1.OwnerReference{
			ref("apps/v1", "ReplicaSet", "gone", "gone-uid"), ref("apps/v1", "ReplicaSet", "live", "live-uid")}},
		{name: "cluster-scoped owner live", owners: []metav1.OwnerReference{ref("v1", "Node", "node-1", "node-uid")}},
		{name: "cluster-scoped owner gone", owners: []metav1.OwnerReference{ref("v1", "Node", "node-2", "node2-uid")}, want: true},
		{name: "unknown kind", owners: []metav1.OwnerReference{ref("example.com/v1", "Widget", "w", "w-uid")}, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resets := mapper.resets
			got, err := l.allGone(context.Background(), "ns", tc.owners)
			switch {
			case tc.wantErr && err == nil:
				t.Fatalf("gone %t, want an error", got)
			case !tc.wantErr && err != nil:
				t.Fatal(err)
			case got != tc.want:
				t.Errorf("gone %t, want %t", got, tc.want)
			}
			if tc.wantErr && mapper.resets == resets {
				t.Error("an unknown kind did not send the lookup back to discovery")
			}
		})
	}
}
