package ownedpods

import (
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
)

func pod(rv string, owner *metav1.OwnerReference, mut ...func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web-0", UID: "uid-1", ResourceVersion: rv}}
	if owner != nil {
		p.OwnerReferences = []metav1.OwnerReference{*owner}
	}
	for _, m := range mut {
		m(p)
	}
	return p
}

func owner(apiVersion, kind, name string, controller bool) *metav1.OwnerReference {
	return &metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: "o", Controller: ptr.To(controller)}
}

func TestHandler(t *testing.T) {
	ours := owner("apps.kruise.io/v1beta1", "CloneSet", "cs", true)
	other := owner("apps.kruise.io/v1alpha1", "CloneSet", "other", true)
	terminating := func(p *corev1.Pod) { p.DeletionTimestamp = &metav1.Time{} }
	labelled := func(p *corev1.Pod) { p.Labels = map[string]string{"app": "x"} }
	for _, tc := range []struct {
		name      string
		event     func(cache.ResourceEventHandlerFuncs)
		expect    expectations.Action // what the owner "cs" expects of web-0 before the event
		wantKeys  []string
		satisfied bool // the expectation of "cs" is met after the event
	}{
		{name: "created pod of ours: seen and queued", expect: expectations.Create,
			event: func(f cache.ResourceEventHandlerFuncs) { f.OnAdd(pod("1", ours), false) }, wantKeys: []string{"ns/cs"}, satisfied: true},
		{name: "kube's own apps group is not ours", expect: expectations.Create,
			event: func(f cache.ResourceEventHandlerFuncs) {
				f.OnAdd(pod("1", owner("apps/v1", "CloneSet", "cs", true)), false)
			}},
		{name: "another kind of the group is not ours", expect: expectations.Create,
			event: func(f cache.ResourceEventHandlerFuncs) {
				f.OnAdd(pod("1", owner("apps.kruise.io/v1beta1", "StatefulSet", "cs", true)), false)
			}},
		{name: "an owner reference that is not the controller is not ours", expect: expectations.Create,
			event: func(f cache.ResourceEventHandlerFuncs) {
				f.OnAdd(pod("1", owner("apps.kruise.io/v1beta1", "CloneSet", "cs", false)), false)
			}},
		{name: "resync (same resourceVersion): nothing", expect: expectations.Delete,
			event: func(f cache.ResourceEventHandlerFuncs) { f.OnUpdate(pod("1", ours), pod("1", ours, terminating)) }},
		{name: "update: owner queued, a deletion not yet seen", expect: expectations.Delete,
			event: func(f cache.ResourceEventHandlerFuncs) { f.OnUpdate(pod("1", ours), pod("2", ours)) }, wantKeys: []string{"ns/cs"}},
		{name: "terminating counts as deleted", expect: expectations.Delete,
			event:    func(f cache.ResourceEventHandlerFuncs) { f.OnUpdate(pod("1", ours), pod("2", ours, terminating)) },
			wantKeys: []string{"ns/cs"}, satisfied: true},
		{name: "re-owned: both owners recount", expect: expectations.Delete,
			event:    func(f cache.ResourceEventHandlerFuncs) { f.OnUpdate(pod("1", other), pod("2", ours)) },
			wantKeys: []string{"ns/cs", "ns/other"}},
		{name: "released: the old owner recounts", expect: expectations.Delete,
			event:    func(f cache.ResourceEventHandlerFuncs) { f.OnUpdate(pod("1", ours), pod("2", nil)) },
			wantKeys: []string{"ns/cs"}},
		{name: "deleted: seen and queued", expect: expectations.Delete,
			event: func(f cache.ResourceEventHandlerFuncs) { f.OnDelete(pod("1", ours)) }, wantKeys: []string{"ns/cs"}, satisfied: true},
		{name: "deletion seen through a tombstone", expect: expectations.Delete,
			event: func(f cache.ResourceEventHandlerFuncs) {
				f.OnDelete(cache.DeletedFinalStateUnknown{Key: "ns/web-0", Obj: pod("1", ours)})
			}, wantKeys: []string{"ns/cs"}, satisfied: true},
		{name: "orphan that matches a workload: that workload may adopt it", expect: expectations.Create,
			event: func(f cache.ResourceEventHandlerFuncs) { f.OnAdd(pod("1", nil, labelled), false) }, wantKeys: []string{"ns/match"}},
		{name: "terminating orphan: nobody adopts it", expect: expectations.Create,
			event: func(f cache.ResourceEventHandlerFuncs) { f.OnAdd(pod("1", nil, labelled, terminating), false) }},
		{name: "orphan relabelled to match", expect: expectations.Create,
			event: func(f cache.ResourceEventHandlerFuncs) { f.OnUpdate(pod("1", nil), pod("2", nil, labelled)) }, wantKeys: []string{"ns/match"}},
		{name: "orphan changed, labels not: nothing to adopt anew", expect: expectations.Create,
			event: func(f cache.ResourceEventHandlerFuncs) { f.OnUpdate(pod("1", nil, labelled), pod("2", nil, labelled)) }},
		{name: "released and matching another workload", expect: expectations.Delete,
			event:    func(f cache.ResourceEventHandlerFuncs) { f.OnUpdate(pod("1", ours), pod("2", nil, labelled)) },
			wantKeys: []string{"ns/cs", "ns/match"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var keys []string
			h := &Handler{
				Owner:    schema.GroupKind{Group: "apps.kruise.io", Kind: "CloneSet"},
				Scale:    expectations.NewScale(),
				Versions: expectations.NewResourceVersion(),
				Enqueue:  func(key string) { keys = append(keys, key) },
				Matching: func(p *corev1.Pod) []string {
					if p.Labels["app"] == "x" {
						return []string{"ns/match"}
					}
					return nil
				},
			}
			h.Scale.Expect("ns/cs", tc.expect, "web-0")
			tc.event(h.Funcs())
			slices.Sort(keys)
			if !slices.Equal(keys, tc.wantKeys) {
				t.Errorf("queued %v, want %v", keys, tc.wantKeys)
			}
			if got := h.Scale.Satisfied("ns/cs"); got != tc.satisfied {
				t.Errorf("expectations of ns/cs satisfied = %t, want %t", got, tc.satisfied)
			}
		})
	}
}
