package sidecarset

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
)

var now = metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))

// newSidecarSet has a cold sidecar "log" and, with hot, a HotUpgrade sidecar "envoy".
func newSidecarSet(logImage string, hot bool) *apps.SidecarSet {
	ss := &apps.SidecarSet{ObjectMeta: metav1.ObjectMeta{Name: "mesh", UID: "ss-uid"}, Spec: apps.SidecarSetSpec{
		Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		Containers: []apps.SidecarContainer{{Container: corev1.Container{Name: "log", Image: logImage},
			UpgradeStrategy: apps.SidecarContainerUpgradeStrategy{UpgradeType: apps.SidecarContainerColdUpgrade}}},
		UpdateStrategy: apps.SidecarSetUpdateStrategy{Type: apps.RollingUpdateSidecarSetStrategyType,
			MaxUnavailable: new(intstr.FromInt32(1)), Partition: new(intstr.FromInt32(0))},
	}}
	if hot {
		ss.Spec.Containers = append(ss.Spec.Containers, apps.SidecarContainer{
			Container: corev1.Container{Name: "envoy", Image: "envoy:v1"},
			UpgradeStrategy: apps.SidecarContainerUpgradeStrategy{UpgradeType: apps.SidecarContainerHotUpgrade,
				HotUpgradeEmptyImage: "envoy:empty"},
		})
	}
	return ss
}

func mustTarget(t *testing.T, ss *apps.SidecarSet) *target {
	t.Helper()
	tg, err := newTarget(ss, ss.Name+"-rev")
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// injectedPod is a running, ready pod injected with injectedWith's sidecars (as the
// webhook records them), all containers reporting their spec images.
func injectedPod(t *testing.T, name string, injectedWith *apps.SidecarSet) *corev1.Pod {
	t.Helper()
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + name),
		Labels: map[string]string{"app": "web"}}}
	var list []string
	for _, sc := range injectedWith.Spec.Containers {
		list = append(list, sc.Name)
		if sc.UpgradeStrategy.UpgradeType == apps.SidecarContainerHotUpgrade {
			n := pub.HotUpgradeContainerNames(sc.Name)
			pod.Spec.Containers = append(pod.Spec.Containers,
				corev1.Container{Name: n[0], Image: sc.Image}, corev1.Container{Name: n[1], Image: sc.UpgradeStrategy.HotUpgradeEmptyImage})
			pod.Annotations = map[string]string{pub.SidecarSetVersionAnnotation(n[0]): "1", pub.SidecarSetVersionAnnotation(n[1]): "0"}
			if err := sidecarset.SetWorkingHotUpgradeContainers(pod, map[string]string{sc.Name: n[0]}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		pod.Spec.Containers = append(pod.Spec.Containers, corev1.Container{Name: sc.Name, Image: sc.Image})
	}
	pod.Spec.Containers = append(pod.Spec.Containers, corev1.Container{Name: "app", Image: "web:v1"})
	tg := mustTarget(t, injectedWith)
	if err := recordTarget(pod, tg, now); err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{pub.SidecarSetHashAnnotation, pub.SidecarSetHashWithoutImageAnnotation} {
		spec := sidecarset.UpgradeSpecs(pod, a)[injectedWith.Name]
		spec.SidecarList = list
		if err := sidecarset.SetUpgradeSpec(pod, a, spec); err != nil {
			t.Fatal(err)
		}
	}
	runAll(pod, true)
	return pod
}

// runAll makes the pod's status report every container with its spec image (as kwok's
// in-place stage does), ready or not.
func runAll(pod *corev1.Pod, ready bool) {
	pod.Status.Phase = corev1.PodRunning
	pod.Status.ContainerStatuses = nil
	for _, c := range pod.Spec.Containers {
		pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, corev1.ContainerStatus{
			Name: c.Name, Image: c.Image, ImageID: "sha-" + c.Image, Ready: ready})
	}
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	pod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: status}}
}

func pods(t *testing.T, n int, injectedWith *apps.SidecarSet) []*corev1.Pod {
	var out []*corev1.Pod
	for i := range n {
		p := injectedPod(t, fmt.Sprintf("web-%d", i), injectedWith)
		p.UID = types.UID("uid-" + p.Name)
		out = append(out, p)
	}
	return out
}

func image(pod *corev1.Pod, name string) string {
	if c := container(pod, name); c != nil {
		return c.Image
	}
	return ""
}
