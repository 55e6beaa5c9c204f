package sidecarset

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

func newSidecarSet() *apps.SidecarSet {
	return &apps.SidecarSet{ObjectMeta: metav1.ObjectMeta{Name: "log"}, Spec: apps.SidecarSetSpec{
		Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		Containers: []apps.SidecarContainer{{Container: corev1.Container{Name: "log", Image: "log:v1"},
			UpgradeStrategy: apps.SidecarContainerUpgradeStrategy{UpgradeType: apps.SidecarContainerColdUpgrade}}},
	}}
}

func TestMatches(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Labels: map[string]string{"app": "web"}}}
	ns := func(string) (labels.Set, error) { return labels.Set{"env": "prod"}, nil }
	cases := []struct {
		name   string
		mutate func(*apps.SidecarSet)
		want   bool
	}{
		{"selector", func(*apps.SidecarSet) {}, true},
		{"other labels", func(ss *apps.SidecarSet) { ss.Spec.Selector.MatchLabels["app"] = "db" }, false},
		{"its namespace", func(ss *apps.SidecarSet) { ss.Spec.Namespace = "team-a" }, true},
		{"another namespace", func(ss *apps.SidecarSet) { ss.Spec.Namespace = "team-b" }, false},
		{"selected namespace", func(ss *apps.SidecarSet) {
			ss.Spec.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}
		}, true},
		{"unselected namespace", func(ss *apps.SidecarSet) {
			ss.Spec.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"env": "dev"}}
		}, false},
		{"empty selector selects nothing", func(ss *apps.SidecarSet) { ss.Spec.Selector = &metav1.LabelSelector{} }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ss := newSidecarSet()
			tc.mutate(ss)
			got, err := Matches(ss, pod, ns)
			if err != nil || got != tc.want {
				t.Errorf("Matches = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestHashes(t *testing.T) {
	hashes := func(ss *apps.SidecarSet) (string, string) {
		h, err := Hash(ss)
		if err != nil {
			t.Fatal(err)
		}
		w, err := HashWithoutImage(ss)
		if err != nil {
			t.Fatal(err)
		}
		return h, w
	}
	ss := newSidecarSet()
	h0, w0 := hashes(ss)

	ss.Spec.Selector.MatchLabels["tier"] = "front"
	ss.Spec.UpdateStrategy.Paused = true
	if h, w := hashes(ss); h != h0 || w != w0 {
		t.Error("selector and strategy changes must not change the hashes: injected pods are not outdated by them")
	}
	ss.Spec.Containers[0].Image = "log:v2"
	if h, w := hashes(ss); h == h0 || w != w0 {
		t.Errorf("an image change must change only the hash: %s/%s vs %s/%s", h, w, h0, w0)
	}
	ss.Spec.Containers[0].Command = []string{"run"}
	if _, w := hashes(ss); w == w0 {
		t.Error("a command change must change the hash without image too")
	}
}

func TestPodAnnotations(t *testing.T) {
	pod := &corev1.Pod{}
	now := metav1.Now()
	for _, name := range []string{"b", "a", "b"} {
		if err := SetUpgradeSpec(pod, pub.SidecarSetHashAnnotation, UpgradeSpec{UpdateTimestamp: now, Hash: "h-" + name, SidecarSetName: name}); err != nil {
			t.Fatal(err)
		}
		AddToInjectedList(pod, name)
	}
	specs := UpgradeSpecs(pod, pub.SidecarSetHashAnnotation)
	if len(specs) != 2 || specs["a"].Hash != "h-a" || specs["b"].Hash != "h-b" {
		t.Errorf("specs = %+v", specs)
	}
	if l := pod.Annotations[pub.SidecarSetListAnnotation]; l != "a,b" {
		t.Errorf("injected list = %q", l)
	}
	pod.Annotations[pub.SidecarSetHashAnnotation] = "not json"
	if len(UpgradeSpecs(pod, pub.SidecarSetHashAnnotation)) != 0 {
		t.Error("an unreadable annotation reads as none")
	}
	if err := SetWorkingHotUpgradeContainers(pod, map[string]string{"envoy": "envoy-2"}); err != nil {
		t.Fatal(err)
	}
	if w := WorkingHotUpgradeContainers(pod); w["envoy"] != "envoy-2" {
		t.Errorf("working = %v", w)
	}
}
