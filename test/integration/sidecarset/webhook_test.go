package sidecarset

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// sidecarset.yaml as documented: test-pod gets sidecar1 with IS_INJECTED=true and the
// log volume, runs 2/2, and records the SidecarSet's hashes.
func TestDocumentedInjection(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	applySidecarSet(t, exampleDocuments(t, "sidecarset.yaml", "SidecarSet")[0], ns,
		kwokPod("probe", map[string]string{"app": "nginx"}, corev1.Container{Name: "app", Image: "nginx:1.7.9"}))

	// The documented pod, on a kwok node.
	pod := exampleDocuments(t, "sidecarset.yaml", "Pod")[0] + `
  tolerations: [{key: kwok.x-k8s.io/node, operator: Exists}]`
	if _, err := c.KubectlStdin(t, pod, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	got := waitRunning(t, ns, "test-pod")
	if n := names(got.Spec.Containers); !slices.Equal(n, []string{"sidecar1", "app"}) {
		t.Fatalf("containers = %v, want sidecar1 injected before app", n)
	}
	if e := envOf(got.Spec.Containers[0], pub.SidecarInjectedEnv); e == nil || e.Value != "true" {
		t.Errorf("sidecar1 env = %v, want IS_INJECTED=true", got.Spec.Containers[0].Env)
	}
	var logVolume bool
	for _, v := range got.Spec.Volumes {
		logVolume = logVolume || (v.Name == "log-volume" && v.EmptyDir != nil)
	}
	if !logVolume {
		t.Errorf("volumes = %v, want log-volume", got.Spec.Volumes)
	}
	if s := sidecarset.UpgradeSpecs(got, pub.SidecarSetHashAnnotation)["test-sidecarset"]; s.Hash == "" ||
		!slices.Equal(s.SidecarList, []string{"sidecar1"}) {
		t.Errorf("%s = %q", pub.SidecarSetHashAnnotation, got.Annotations[pub.SidecarSetHashAnnotation])
	}
	out := kubectl(t, "get", "pod", "test-pod", "-n", ns)
	if r := row(out, "test-pod"); len(r) < 2 || r[1] != "2/2" {
		t.Errorf("kubectl get pod: %v, want READY 2/2\n%s", r, out)
	}

	// A pod the SidecarSet does not select is left alone.
	plain, err := c.Client.CoreV1().Pods(ns).Create(ctx,
		kwokPod("plain", map[string]string{"app": "redis"}, corev1.Container{Name: "app", Image: "redis"}), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Spec.Containers) != 1 || plain.Annotations[pub.SidecarSetListAnnotation] != "" {
		t.Errorf("unselected pod mutated: %v %v", names(plain.Spec.Containers), plain.Annotations)
	}
}

// sidecarset-hotupgrade.yaml: the CloneSet's pod gets sidecar-1 (the sidecar image,
// working) and sidecar-2 (the empty image) next to busybox.
func TestDocumentedHotUpgradeInjection(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	applySidecarSet(t, exampleDocuments(t, "sidecarset-hotupgrade.yaml", "SidecarSet")[0], ns,
		kwokPod("probe", map[string]string{"app": "hotupgrade"}, corev1.Container{Name: "busybox", Image: "busybox"}))
	cs := exampleDocuments(t, "sidecarset-hotupgrade.yaml", "CloneSet")[0] + `
      tolerations: [{key: kwok.x-k8s.io/node, operator: Exists}]`
	if _, err := c.KubectlStdin(t, cs, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	var pod *corev1.Pod
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		pods, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=hotupgrade"})
		if err != nil || len(pods.Items) != 1 {
			return false, err
		}
		pod = &pods.Items[0]
		return true, nil
	})
	pod = waitRunning(t, ns, pod.Name)
	if n := names(pod.Spec.Containers); !slices.Equal(n, []string{"sidecar-1", "sidecar-2", "busybox"}) {
		t.Fatalf("containers = %v", n)
	}
	if i1, i2 := pod.Spec.Containers[0].Image, pod.Spec.Containers[1].Image; i1 != "openkruise/hotupgrade-sample:sidecarv1" ||
		i2 != "openkruise/hotupgrade-sample:empty" {
		t.Errorf("images = %s, %s", i1, i2)
	}
	if w := sidecarset.WorkingHotUpgradeContainers(pod); w["sidecar"] != "sidecar-1" {
		t.Errorf("working = %v", w)
	}
	if pod.Annotations[pub.SidecarSetVersionAnnotation("sidecar-1")] != "1" || pod.Annotations[pub.SidecarSetVersionAnnotation("sidecar-2")] != "0" {
		t.Errorf("version annotations = %v", pod.Annotations)
	}
}

// container-launch-priority.yaml: every container reads its priority's key of the
// pod's barrier ConfigMap (list order for ordered-pod, the env for weighted-pod), and
// the keys appear in priority order. kwok starts every container at once whatever the
// barrier says, so the pods are held Pending by a scheduling gate first: only the
// highest key is there; once they run and their first containers are ready, the next
// key follows.
func TestDocumentedLaunchPriorityBarrier(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	for _, doc := range exampleDocuments(t, "container-launch-priority.yaml", "Pod") {
		doc += `
  schedulingGates: [{name: kruise-native.io/integration-test}]`
		if _, err := c.KubectlStdin(t, doc, "apply", "-n", ns, "-f", "-"); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]map[string]string{
		"ordered-pod":  {"sidecar": "p_0", "main": "p_-1"},
		"weighted-pod": {"main": "p_0", "sidecar": "p_1"},
	}
	first := map[string]string{"ordered-pod": "p_0", "weighted-pod": "p_1"}
	for name, keys := range want {
		pod, err := c.Client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, ct := range pod.Spec.Containers {
			e := envOf(ct, pub.ContainerLaunchBarrierEnv)
			if e == nil || e.ValueFrom == nil || e.ValueFrom.ConfigMapKeyRef == nil ||
				e.ValueFrom.ConfigMapKeyRef.Name != name+"-barrier" || e.ValueFrom.ConfigMapKeyRef.Key != keys[ct.Name] {
				t.Errorf("%s/%s barrier env = %+v, want key %s of %s-barrier", name, ct.Name, e, keys[ct.Name], name)
			}
		}
		// Pending: only the highest priority may start.
		framework.WaitFor(t, time.Minute, func() (bool, error) {
			cm, err := c.Client.CoreV1().ConfigMaps(ns).Get(ctx, name+"-barrier", metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			if len(cm.OwnerReferences) != 1 || cm.OwnerReferences[0].UID != pod.UID {
				t.Fatalf("%s-barrier owners = %v, want the pod", name, cm.OwnerReferences)
			}
			return len(cm.Data) == 1 && cm.Data[first[name]] == "true", nil
		})
	}
	// While no container is ready, no further key is released.
	framework.Consistently(t, time.Second, func() (bool, string) {
		for name := range want {
			if cm, _ := c.Client.CoreV1().ConfigMaps(ns).Get(ctx, name+"-barrier", metav1.GetOptions{}); len(cm.Data) != 1 {
				return false, fmt.Sprintf("%s-barrier = %v while no container is ready, want %s only", name, cm.Data, first[name])
			}
		}
		return true, ""
	})
	for name := range want {
		// Let it be scheduled: its containers run, the next key follows.
		if _, err := c.Client.CoreV1().Pods(ns).Patch(ctx, name, types.JSONPatchType,
			[]byte(`[{"op":"remove","path":"/spec/schedulingGates"}]`), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for name, keys := range want {
		framework.WaitFor(t, time.Minute, func() (bool, error) {
			cm, err := c.Client.CoreV1().ConfigMaps(ns).Get(ctx, name+"-barrier", metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			for _, k := range keys {
				if cm.Data[k] != "true" {
					return false, nil
				}
			}
			return true, nil
		})
	}

	// A priority out of range is refused with its field.
	bad := kwokPod("bad-priority", nil, corev1.Container{Name: "a", Image: "a"},
		corev1.Container{Name: "b", Image: "b", Env: []corev1.EnvVar{{Name: pub.ContainerPriorityEnv, Value: "2147483648"}}})
	_, err := c.Client.CoreV1().Pods(ns).Create(ctx, bad, metav1.CreateOptions{})
	if err == nil || !strings.Contains(err.Error(), "spec.containers[1].env[0].value") {
		t.Fatalf("want the out-of-range priority refused at its field, got %v", err)
	}
}
