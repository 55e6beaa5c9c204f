package sidecarset

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A SidecarSet with a resourcesPolicy (OpenKruise's "sum" story): the injected envoy
// gets half the summed cpu of the engine containers (at least 50m) and fixed memory;
// a pod without an engine container is refused with the reason.
func TestResourcesPolicyInjection(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	engine := func(name, cpuLimit, cpuRequest string) corev1.Container {
		return corev1.Container{Name: name, Image: "nginx", Resources: corev1.ResourceRequirements{
			Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpuLimit), corev1.ResourceMemory: resource.MustParse("400Mi")},
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpuRequest), corev1.ResourceMemory: resource.MustParse("200Mi")},
		}}
	}
	applySidecarSet(t, `
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: sized-proxy}
spec:
  selector: {matchLabels: {app: sized}}
  containers:
  - name: envoy
    image: envoy:v1
    resourcesPolicy:
      targetContainersMode: sum
      targetContainersNameRegex: ^large-engine-v.*$
      resourcesExpr:
        limits: {cpu: "max(cpu*50%, 50m)", memory: 200Mi}
        requests: {cpu: "max(cpu*50%, 50m)", memory: 100Mi}`, ns,
		kwokPod("probe", map[string]string{"app": "sized"}, engine("large-engine-v1", "100m", "10m")))

	pod, err := c.Client.CoreV1().Pods(ns).Create(ctx, kwokPod("engine", map[string]string{"app": "sized"},
		engine("large-engine-v4", "200m", "50m"), engine("large-engine-v8", "400m", "100m"),
		corev1.Container{Name: "logger", Image: "busybox"}), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := waitRunning(t, ns, pod.Name)
	envoy, _ := containerOf(got, "envoy")
	if envoy.Name != "envoy" {
		t.Fatalf("envoy not injected into pod %s: %v", got.Name, got.Spec.Containers)
	}
	want := map[string]string{"limits.cpu": "300m", "limits.memory": "200Mi", "requests.cpu": "75m", "requests.memory": "100Mi"}
	have := map[string]resource.Quantity{
		"limits.cpu": envoy.Resources.Limits[corev1.ResourceCPU], "limits.memory": envoy.Resources.Limits[corev1.ResourceMemory],
		"requests.cpu": envoy.Resources.Requests[corev1.ResourceCPU], "requests.memory": envoy.Resources.Requests[corev1.ResourceMemory],
	}
	for k, w := range want {
		if h := have[k]; h.Cmp(resource.MustParse(w)) != 0 {
			t.Errorf("envoy %s = %s, want %s", k, h.String(), w)
		}
	}

	_, err = c.Client.CoreV1().Pods(ns).Create(ctx, kwokPod("no-engine", map[string]string{"app": "sized"},
		corev1.Container{Name: "logger", Image: "busybox"}), metav1.CreateOptions{})
	if err == nil || !strings.Contains(err.Error(), "targetContainersNameRegex") {
		t.Fatalf("pod without an engine container: %v, want a refusal naming targetContainersNameRegex", err)
	}
}
