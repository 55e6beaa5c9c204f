package daemonset

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func kruise(t *testing.T) kruiseclient.Interface {
	return kruiseclient.NewForConfigOrDie(framework.Get(t).Config)
}

// addNode creates a kwok node (kwok plays its kubelet, as for hack/local-up.sh's
// nodes) and deletes it when the test ends.
func addNode(t *testing.T, name string, labels map[string]string) {
	t.Helper()
	c := framework.Get(t)
	// Not framework.JoinNode: these tests watch pods come to a node as it turns Ready.
	if _, err := c.Client.CoreV1().Nodes().Create(context.Background(), framework.KwokNode(name, labels), metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating node %s: %v", name, err)
	}
	t.Cleanup(func() { deleteNode(t, name) })
}

func deleteNode(t *testing.T, name string) {
	err := framework.Get(t).Client.CoreV1().Nodes().Delete(context.Background(), name, metav1.DeleteOptions{})
	if err != nil && !strings.Contains(err.Error(), "not found") {
		t.Errorf("deleting node %s: %v", name, err)
	}
}

// labelNode sets (value != "") or removes a label of a node.
func labelNode(t *testing.T, name, key, value string) {
	t.Helper()
	v := "null"
	if value != "" {
		v = fmt.Sprintf("%q", value)
	}
	patch := fmt.Sprintf(`{"metadata":{"labels":{%q:%s}}}`, key, v)
	if _, err := framework.Get(t).Client.CoreV1().Nodes().Patch(context.Background(), name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
}

// nodeNames lists the cluster's nodes.
func nodeNames(t *testing.T) []string {
	t.Helper()
	list, err := framework.Get(t).Client.CoreV1().Nodes().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range list.Items {
		out = append(out, n.Name)
	}
	sort.Strings(out)
	return out
}

// applyExample applies a documented manifest unchanged (into the namespace it names).
func applyExample(t *testing.T, name string) {
	t.Helper()
	c := framework.Get(t)
	f := filepath.Join(c.Root, "examples", name)
	if _, err := os.Stat(f); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := c.Kubectl(t, "apply", "-f", f); err != nil {
		t.Fatalf("kubectl apply -f %s: %v: %s", name, err, stderr)
	}
	t.Cleanup(func() { _, _, _ = c.Kubectl(t, "delete", "--ignore-not-found", "--wait", "-f", f) })
}

// podsByNode returns the DaemonSet's live pods by the node they are bound or pinned to.
func podsByNode(t *testing.T, ns string, ds *v1beta1.DaemonSet) map[string][]corev1.Pod {
	t.Helper()
	list, err := framework.Get(t).Client.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]corev1.Pod{}
	for _, p := range list.Items {
		if ref := metav1.GetControllerOf(&p); ref == nil || ref.UID != ds.UID || p.DeletionTimestamp != nil {
			continue
		}
		out[p.Spec.NodeName] = append(out[p.Spec.NodeName], p)
	}
	return out
}

func getDS(t *testing.T, ns, name string) *v1beta1.DaemonSet {
	t.Helper()
	ds, err := kruise(t).AppsV1beta1().DaemonSets(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// waitStatus waits until the DaemonSet's controller has seen its generation and its
// status satisfies cond.
func waitStatus(t *testing.T, ns, name string, timeout time.Duration, cond func(s v1beta1.DaemonSetStatus) bool) *v1beta1.DaemonSet {
	t.Helper()
	var ds *v1beta1.DaemonSet
	framework.WaitFor(t, timeout, func() (bool, error) {
		var err error
		ds, err = kruise(t).AppsV1beta1().DaemonSets(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return ds.Status.ObservedGeneration == ds.Generation && cond(ds.Status), nil
	})
	return ds
}

// settled: every desired node runs exactly one ready pod of the update revision.
func settled(s v1beta1.DaemonSetStatus, desired int32) bool {
	return s.DesiredNumberScheduled == desired && s.CurrentNumberScheduled == desired && s.NumberReady == desired &&
		s.NumberAvailable == desired && s.UpdatedNumberScheduled == desired && s.NumberMisscheduled == 0
}

// waitOnePodPerNode waits until exactly the given nodes run one bound, ready pod each.
func waitOnePodPerNode(t *testing.T, ns string, ds *v1beta1.DaemonSet, nodes []string) map[string]corev1.Pod {
	t.Helper()
	var out map[string]corev1.Pod
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		byNode := podsByNode(t, ns, ds)
		out = map[string]corev1.Pod{}
		if len(byNode) != len(nodes) {
			return false, fmt.Errorf("pods on %d nodes, want %d", len(byNode), len(nodes))
		}
		for _, n := range nodes {
			pods := byNode[n]
			if len(pods) != 1 || !ready(&pods[0]) {
				return false, fmt.Errorf("node %s runs %d pods (want one, ready)", n, len(pods))
			}
			out[n] = pods[0]
		}
		return true, nil
	})
	return out
}

func ready(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// setImage changes the template's first container image (a new revision).
func setImage(t *testing.T, ns, name, image string) {
	t.Helper()
	updateDS(t, ns, name, func(ds *v1beta1.DaemonSet) { ds.Spec.Template.Spec.Containers[0].Image = image })
}

// updateDS changes a DaemonSet's spec, retrying on conflicts.
func updateDS(t *testing.T, ns, name string, mutate func(*v1beta1.DaemonSet)) {
	t.Helper()
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		ds := getDS(t, ns, name)
		mutate(ds)
		_, err := kruise(t).AppsV1beta1().DaemonSets(ns).Update(context.Background(), ds, metav1.UpdateOptions{})
		return err == nil, err
	})
}

// newDaemonSet is a DaemonSet of one container on the nodes labelled nodeLabel=yes.
func newDaemonSet(name, nodeLabel string, ru *v1beta1.RollingUpdateDaemonSet) *v1beta1.DaemonSet {
	labels := map[string]string{"app": name}
	return &v1beta1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1beta1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					NodeSelector: map[string]string{nodeLabel: "yes"},
					Containers:   []corev1.Container{{Name: "main", Image: "nginx:1.7.9"}},
				},
			},
			UpdateStrategy: v1beta1.DaemonSetUpdateStrategy{Type: v1beta1.RollingUpdateDaemonSetStrategyType, RollingUpdate: ru},
		},
	}
}

func createDS(t *testing.T, ns string, ds *v1beta1.DaemonSet) *v1beta1.DaemonSet {
	t.Helper()
	out, err := kruise(t).AppsV1beta1().DaemonSets(ns).Create(context.Background(), ds, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// imageOf is the pod's first container image and its restart count.
func imageOf(p corev1.Pod) (string, int32) {
	var restarts int32
	if len(p.Status.ContainerStatuses) > 0 {
		restarts = p.Status.ContainerStatuses[0].RestartCount
	}
	return p.Spec.Containers[0].Image, restarts
}

func revisionOf(p corev1.Pod) string { return p.Labels[pub.ControllerRevisionHashLabelKey] }
