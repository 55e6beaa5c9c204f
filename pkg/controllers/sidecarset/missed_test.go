package sidecarset

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
)

// A pod created after a SidecarSet that selects it, without its sidecars, gets a
// warning event; an injected pod, one created before the SidecarSet, one the
// SidecarSet does not select, or one that already has the containers, does not.
func TestReportMissedInjection(t *testing.T) {
	created := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	ss := &v1beta1.SidecarSet{ObjectMeta: metav1.ObjectMeta{Name: "mesh", CreationTimestamp: created}, Spec: v1beta1.SidecarSetSpec{
		Selector:   &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		Containers: []v1beta1.SidecarContainer{{Container: corev1.Container{Name: "envoy", Image: "envoy"}}},
	}}
	sets := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	_ = sets.Add(ss)
	recorder := record.NewFakeRecorder(10)
	c := &Controller{sidecarSets: kruiselisters.NewSidecarSetLister(sets), recorder: recorder, scheme: newScheme(),
		namespaces: corelisters.NewNamespaceLister(cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}))}

	pod := func(name string, at time.Time, labels map[string]string, annotations map[string]string, containers ...string) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", Labels: labels, Annotations: annotations,
			CreationTimestamp: metav1.NewTime(at)}}
		for _, c := range containers {
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: c})
		}
		return p
	}
	later, earlier := created.Add(time.Minute), created.Add(-time.Minute)
	web := map[string]string{"app": "web"}
	for _, p := range []*corev1.Pod{
		pod("injected", later, web, map[string]string{pub.SidecarSetListAnnotation: "mesh"}, "envoy", "app"),
		pod("older", earlier, web, nil, "app"),
		pod("other", later, map[string]string{"app": "db"}, nil, "app"),
		pod("has-it", later, web, nil, "envoy", "app"),
	} {
		c.reportMissedInjection(p)
	}
	if len(recorder.Events) != 0 {
		t.Fatalf("unexpected event %s", <-recorder.Events)
	}
	c.reportMissedInjection(pod("missed", later, web, nil, "app"))
	select {
	case e := <-recorder.Events:
		if !strings.Contains(e, ReasonNotInjected) || !strings.Contains(e, "SidecarSet mesh selects this pod") {
			t.Errorf("event = %q", e)
		}
	default:
		t.Fatal("no event for the pod that missed its injection")
	}
}
