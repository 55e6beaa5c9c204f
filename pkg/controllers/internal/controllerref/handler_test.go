package controllerref

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
)

var owner = schema.GroupKind{Group: "apps.kruise.io", Kind: "ImageListPullJob"}

func child(rv string, refs ...metav1.OwnerReference) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "ns", ResourceVersion: rv, OwnerReferences: refs}}
}

func ref(apiVersion, kind, name string, controller bool) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: "u-" + "name", Controller: ptr.To(controller)}
}

func TestEnqueueOwner(t *testing.T) {
	ours := ref("apps.kruise.io/v1alpha1", "ImageListPullJob", "list", true)
	otherVersion := ref("apps.kruise.io/v1beta1", "ImageListPullJob", "list2", true)
	tests := []struct {
		name string
		fire func(h cache.ResourceEventHandlerFuncs)
		want []string
	}{
		{"add, controlled by the kind", func(h cache.ResourceEventHandlerFuncs) { h.OnAdd(child("1", ours), false) }, []string{"ns/list"}},
		{"add, any version of the group", func(h cache.ResourceEventHandlerFuncs) { h.OnAdd(child("1", otherVersion), false) }, []string{"ns/list2"}},
		{"add, owner but not controller", func(h cache.ResourceEventHandlerFuncs) {
			h.OnAdd(child("1", ref("apps.kruise.io/v1alpha1", "ImageListPullJob", "list", false)), false)
		}, nil},
		{"add, another group's kind", func(h cache.ResourceEventHandlerFuncs) {
			h.OnAdd(child("1", ref("batch/v1", "ImageListPullJob", "list", true)), false)
		}, nil},
		{"update, resync", func(h cache.ResourceEventHandlerFuncs) { h.OnUpdate(child("1", ours), child("1", ours)) }, nil},
		{"update, controller changed", func(h cache.ResourceEventHandlerFuncs) { h.OnUpdate(child("1", ours), child("2", otherVersion)) },
			[]string{"ns/list2", "ns/list"}},
		{"update, released", func(h cache.ResourceEventHandlerFuncs) { h.OnUpdate(child("1", ours), child("2")) }, []string{"ns/list"}},
		{"delete, tombstone", func(h cache.ResourceEventHandlerFuncs) {
			h.OnDelete(cache.DeletedFinalStateUnknown{Key: "ns/c", Obj: child("1", ours)})
		}, []string{"ns/list"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			tt.fire(EnqueueOwner(owner, func(key string) { got = append(got, key) }))
			if len(got) != len(tt.want) {
				t.Fatalf("queued %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("queued %v, want %v", got, tt.want)
				}
			}
		})
	}
}

func TestEnqueueClusterScopedOwner(t *testing.T) {
	rd := schema.GroupKind{Group: "apps.kruise.io", Kind: "ResourceDistribution"}
	var got []string
	h := EnqueueClusterScopedOwner(rd, func(key string) { got = append(got, key) })
	h.OnAdd(child("1", ref("apps.kruise.io/v1alpha1", "ResourceDistribution", "sample", true)), false)
	h.OnAdd(child("1", ref("apps.kruise.io/v1alpha1", "ResourceDistribution", "other", false)), false)
	if len(got) != 1 || got[0] != "sample" {
		t.Fatalf("queued %v, want [sample] (the owner's name, no namespace)", got)
	}
}
