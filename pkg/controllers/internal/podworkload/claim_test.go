package podworkload

import (
	"context"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestClaim(t *testing.T) {
	app := map[string]string{"app": "web"}
	other := map[string]string{"app": "other"}
	terminating := func(p *corev1.Pod) *corev1.Pod { p.DeletionTimestamp = &metav1.Time{}; return p }
	elsewhere := func(p *corev1.Pod) *corev1.Pod { p.Namespace = "other-ns"; return p }
	ours := controlledBy("cs", "cs-uid")
	tests := []struct {
		name        string
		pods        []*corev1.Pod
		deleting    bool
		freshUID    string // "" = the uncached read fails
		member      func(*corev1.Pod) bool
		wantClaimed []string
		wantWrites  []string
		wantErr     string
		wantReads   int
	}{{
		name:        "owned and matching: kept, no write",
		pods:        []*corev1.Pod{testPod("a", app, ours)},
		wantClaimed: []string{"a"},
	}, {
		name:       "owned, relabelled: released",
		pods:       []*corev1.Pod{testPod("a", other, ours)},
		wantWrites: []string{"patch pods a"},
	}, {
		name:     "owned, relabelled, owner being deleted: neither kept nor released",
		pods:     []*corev1.Pod{testPod("a", other, ours)},
		deleting: true,
	}, {
		name:        "matching orphan: adopted after one uncached read",
		pods:        []*corev1.Pod{testPod("a", app, nil), testPod("b", app, nil)},
		freshUID:    "cs-uid",
		wantClaimed: []string{"a", "b"},
		wantWrites:  []string{"patch pods a", "patch pods b"},
		wantReads:   1,
	}, {
		name:     "matching orphan, owner being deleted: not adopted",
		pods:     []*corev1.Pod{testPod("a", app, nil)},
		deleting: true,
		freshUID: "cs-uid",
	}, {
		name:      "matching orphan, the owner's name now has another uid: not adopted",
		pods:      []*corev1.Pod{testPod("a", app, nil)},
		freshUID:  "new-uid",
		wantErr:   "is gone",
		wantReads: 1,
	}, {
		name:      "matching orphan, the uncached read fails: not adopted",
		pods:      []*corev1.Pod{testPod("a", app, nil)},
		wantErr:   "rechecking",
		wantReads: 1,
	}, {
		name:     "orphans that do not match, terminate, or live elsewhere: left alone",
		pods:     []*corev1.Pod{testPod("a", other, nil), terminating(testPod("b", app, nil)), elsewhere(testPod("c", app, nil))},
		freshUID: "cs-uid",
	}, {
		name:     "another controller's pod: never touched",
		pods:     []*corev1.Pod{testPod("a", app, controlledBy("rs", "rs-uid")), testPod("b", other, controlledBy("rs", "rs-uid"))},
		freshUID: "cs-uid",
	}, {
		name:        "member filter: a matching non-member orphan stays an orphan, an owned non-member is released",
		pods:        []*corev1.Pod{testPod("cs-0", app, nil), testPod("x", app, nil), testPod("y", app, ours)},
		freshUID:    "cs-uid",
		member:      func(p *corev1.Pod) bool { return strings.HasPrefix(p.Name, "cs-") },
		wantClaimed: []string{"cs-0"},
		wantWrites:  []string{"patch pods cs-0", "patch pods y"},
		wantReads:   1,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs := make([]runtime.Object, len(tt.pods))
			for i, p := range tt.pods {
				objs[i] = p
			}
			f := newFixture(t, objs...)
			if tt.freshUID != "" {
				fresh := owner(false)
				fresh.UID = "new-uid"
				if tt.freshUID == "cs-uid" {
					fresh.UID = "cs-uid"
				}
				f.fresh = fresh
			}
			var owned []*corev1.Pod
			for _, p := range tt.pods {
				if ref := metav1.GetControllerOf(p); ref != nil && ref.UID == "cs-uid" {
					owned = append(owned, p)
				}
			}
			w := Workload{Object: owner(tt.deleting), Selector: &metav1.LabelSelector{MatchLabels: app}, Member: tt.member}
			claimed, err := f.c.Claim(context.Background(), w, owned)
			if (err != nil) != (tt.wantErr != "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
			var names []string
			for _, p := range claimed {
				names = append(names, p.Name)
			}
			slices.Sort(names)
			if !slices.Equal(names, tt.wantClaimed) {
				t.Errorf("claimed %v, want %v", names, tt.wantClaimed)
			}
			writes := f.writes()
			slices.Sort(writes)
			if !slices.Equal(writes, tt.wantWrites) {
				t.Errorf("wrote %v, want %v", writes, tt.wantWrites)
			}
			if f.reads != tt.wantReads {
				t.Errorf("%d uncached reads of the owner, want %d", f.reads, tt.wantReads)
			}
			// What the API holds now: adopted pods controlled by the owner, released ones by nobody.
			for _, w := range tt.wantWrites {
				name := strings.TrimPrefix(w, "patch pods ")
				p, err := f.kube.CoreV1().Pods("ns").Get(context.Background(), name, metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				ref := metav1.GetControllerOf(p)
				adopted := slices.Contains(tt.wantClaimed, name)
				if adopted != (ref != nil && ref.UID == "cs-uid") || !adopted && len(p.OwnerReferences) != 0 {
					t.Errorf("pod %s owners %+v after the claim", name, p.OwnerReferences)
				}
				stale := p.DeepCopy()
				stale.ResourceVersion = "0"
				if f.c.Versions.Observe(stale) {
					t.Errorf("pod %s written but the next sync would not wait for the cache", name)
				}
			}
		})
	}
}

func TestMatchingKeys(t *testing.T) {
	sel := func(l map[string]string) *metav1.LabelSelector { return &metav1.LabelSelector{MatchLabels: l} }
	a, b, empty := owner(false), owner(false), owner(false)
	b.Name, empty.Name = "cs2", "cs3"
	selectors := map[string]*metav1.LabelSelector{"cs": sel(map[string]string{"app": "web"}), "cs2": sel(map[string]string{"app": "db"}), "cs3": {}}
	got := MatchingKeys([]*corev1.ConfigMap{a, b, empty}, func(o *corev1.ConfigMap) *metav1.LabelSelector { return selectors[o.Name] },
		testPod("p", map[string]string{"app": "web"}, nil))
	if !slices.Equal(got, []string{"ns/cs"}) {
		t.Errorf("MatchingKeys = %v, want [ns/cs] (an empty selector matches nothing)", got)
	}
}
