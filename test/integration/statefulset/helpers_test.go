package statefulset

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func kruise(t *testing.T) kruiseclient.Interface {
	return kruiseclient.NewForConfigOrDie(framework.Get(t).Config)
}

// readExample returns a documented manifest, made to apply into any namespace: the
// examples name `namespace: default`, the tests each run in their own.
func readExample(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(framework.Get(t).Root, "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(string(data), "  namespace: default\n", "", 1)
}

func apply(t *testing.T, ns, manifest string) {
	t.Helper()
	if _, err := framework.Get(t).KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
}

func patchSet(t *testing.T, ns, name, patch string) {
	t.Helper()
	if _, _, err := framework.Get(t).Kubectl(t, "patch", "statefulsets.apps.kruise.io", name, "-n", ns, "--type=merge", "-p", patch); err != nil {
		t.Fatal(err)
	}
}

func setImage(t *testing.T, ns, name, image string) {
	t.Helper()
	if _, _, err := framework.Get(t).Kubectl(t, "patch", "statefulsets.apps.kruise.io", name, "-n", ns, "--type=json", "-p",
		fmt.Sprintf(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":%q}]`, image)); err != nil {
		t.Fatal(err)
	}
}

// waitStatus waits until the set's status, for its current generation, satisfies cond.
func waitStatus(t *testing.T, ns, name string, timeout time.Duration, cond func(s v1beta1.StatefulSetStatus) bool) *v1beta1.StatefulSet {
	t.Helper()
	var set *v1beta1.StatefulSet
	framework.WaitFor(t, timeout, func() (bool, error) {
		var err error
		set, err = kruise(t).AppsV1beta1().StatefulSets(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return set.Status.ObservedGeneration == set.Generation && cond(set.Status), nil
	})
	return set
}

// settled: every wanted pod exists, is ready and runs the update revision.
func settled(replicas int32) func(s v1beta1.StatefulSetStatus) bool {
	return func(s v1beta1.StatefulSetStatus) bool {
		return s.Replicas == replicas && s.ReadyReplicas == replicas && s.UpdatedReplicas == replicas &&
			s.UpdatedReadyReplicas == replicas && s.CurrentRevision == s.UpdateRevision
	}
}

// livePods lists the pods of the namespace that are not terminating, by name.
func livePods(t *testing.T, ns string) map[string]corev1.Pod {
	t.Helper()
	list, err := framework.Get(t).Client.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]corev1.Pod{}
	for _, p := range list.Items {
		if p.DeletionTimestamp == nil {
			out[p.Name] = p
		}
	}
	return out
}

// ordinals returns the ordinals of the pods of set name, sorted.
func ordinals(name string, pods map[string]corev1.Pod) []int {
	var out []int
	for n := range pods {
		if rest, ok := strings.CutPrefix(n, name+"-"); ok {
			if o, err := strconv.Atoi(rest); err == nil {
				out = append(out, o)
			}
		}
	}
	sort.Ints(out)
	return out
}

func isPodReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// eventReasons returns how often each reason was recorded on an object.
func eventReasons(t *testing.T, ns, name string) map[string]int {
	t.Helper()
	list, err := framework.Get(t).Client.CoreV1().Events(ns).List(context.Background(), metav1.ListOptions{
		FieldSelector: "involvedObject.name=" + name,
	})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, e := range list.Items {
		out[e.Reason] += int(e.Count)
	}
	return out
}

// claimNames lists the PersistentVolumeClaims of the namespace that are not being
// deleted, sorted.
func claimNames(t *testing.T, ns string) []string {
	t.Helper()
	list, err := framework.Get(t).Client.CoreV1().PersistentVolumeClaims(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range list.Items {
		if c.DeletionTimestamp == nil {
			out = append(out, c.Name)
		}
	}
	sort.Strings(out)
	return out
}

// createVolumes makes n hostPath PersistentVolumes of storage class class, for the
// claims of a test to bind to (the local stack has no provisioner): kube-scheduler
// does not schedule a pod whose claims are unbound.
func createVolumes(t *testing.T, class string, n int) {
	t.Helper()
	c := framework.Get(t)
	for i := range n {
		pv := &corev1.PersistentVolume{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", class, i)},
			Spec: corev1.PersistentVolumeSpec{
				Capacity:                      corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")},
				AccessModes:                   []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				PersistentVolumeReclaimPolicy: corev1.PersistentVolumeReclaimRetain,
				StorageClassName:              class,
				PersistentVolumeSource: corev1.PersistentVolumeSource{
					HostPath: &corev1.HostPathVolumeSource{Path: "/tmp/" + class + "-" + strconv.Itoa(i)},
				},
			},
		}
		if _, err := c.Client.CoreV1().PersistentVolumes().Create(context.Background(), pv, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		name := pv.Name
		t.Cleanup(func() {
			_ = c.Client.CoreV1().PersistentVolumes().Delete(context.Background(), name, metav1.DeleteOptions{})
		})
	}
}
