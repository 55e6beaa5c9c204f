package v1beta1

import (
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// The pods' IPs, which v1beta1 has no field for, go out in the annotation and come
// back from it; an annotation that no longer lines up with the pods is dropped, one
// that does not parse is refused at its key.
func TestNodePodProbeIPsAnnotation(t *testing.T) {
	hub := &apps.NodePodProbe{ObjectMeta: metav1.ObjectMeta{Name: "node-1"},
		Spec: apps.NodePodProbeSpec{PodProbes: []apps.PodProbe{{Name: "a", IP: "10.0.0.1"}, {Name: "b"}}}}
	var v NodePodProbe
	if err := Convert_apps_NodePodProbe_To_v1beta1_NodePodProbe(hub, &v, nil); err != nil {
		t.Fatal(err)
	}
	if got := v.Annotations[NodePodProbePodIPsAnnotation]; got != `["10.0.0.1",""]` {
		t.Fatalf("annotation %q", got)
	}
	if hub.Annotations != nil {
		t.Fatalf("the hub's annotations changed: %v", hub.Annotations)
	}
	var back apps.NodePodProbe
	if err := Convert_v1beta1_NodePodProbe_To_apps_NodePodProbe(&v, &back, nil); err != nil {
		t.Fatal(err)
	}
	if back.Spec.PodProbes[0].IP != "10.0.0.1" || back.Spec.PodProbes[1].IP != "" || back.Annotations != nil {
		t.Fatalf("back: %+v %v", back.Spec.PodProbes, back.Annotations)
	}

	// A v1beta1 writer removed a pod: the list no longer lines up and is dropped.
	v.Spec.PodProbes = v.Spec.PodProbes[:1]
	back = apps.NodePodProbe{}
	if err := Convert_v1beta1_NodePodProbe_To_apps_NodePodProbe(&v, &back, nil); err != nil {
		t.Fatal(err)
	}
	if back.Spec.PodProbes[0].IP != "" || back.Annotations != nil {
		t.Fatalf("misaligned: %+v %v", back.Spec.PodProbes, back.Annotations)
	}

	v.Annotations = map[string]string{NodePodProbePodIPsAnnotation: "{"}
	err := Convert_v1beta1_NodePodProbe_To_apps_NodePodProbe(&v, &back, nil)
	if !apierrors.IsInvalid(err) {
		t.Fatalf("malformed annotation: %v", err)
	}

	// A v1alpha1 client wrote the key itself (the hub carries it through): it is not
	// what v1beta1, the storage version, gets, so the stored object stays readable.
	hub = &apps.NodePodProbe{ObjectMeta: metav1.ObjectMeta{Name: "node-1",
		Annotations: map[string]string{NodePodProbePodIPsAnnotation: "{", "team": "x"}},
		Spec: apps.NodePodProbeSpec{PodProbes: []apps.PodProbe{{Name: "a"}}}}
	v = NodePodProbe{}
	if err := Convert_apps_NodePodProbe_To_v1beta1_NodePodProbe(hub, &v, nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := v.Annotations[NodePodProbePodIPsAnnotation]; ok || v.Annotations["team"] != "x" || len(hub.Annotations) != 2 {
		t.Fatalf("client-set key: v1beta1 annotations %v, hub's %v", v.Annotations, hub.Annotations)
	}
}
