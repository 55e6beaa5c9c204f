package uniteddeployment

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const (
	subsetLabel = "apps.kruise.io/subset-name"
	zoneLabel   = "topology.kubernetes.io/zone"
)

func kruise(c *framework.Cluster) kruiseclient.Interface {
	return kruiseclient.NewForConfigOrDie(c.Config)
}

func apply(t *testing.T, c *framework.Cluster, ns, manifest string) {
	t.Helper()
	if out, err := c.KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v\n%s", err, out)
	}
}

// livePods lists the pods selected by selector that are not being deleted.
func livePods(t *testing.T, c *framework.Cluster, ns, selector string) []corev1.Pod {
	t.Helper()
	list, err := c.Client.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		t.Fatal(err)
	}
	var out []corev1.Pod
	for _, p := range list.Items {
		if p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out
}

// podsPerSubset counts running and ready pods by subset label.
func podsPerSubset(pods []corev1.Pod) map[string]int {
	out := map[string]int{}
	for _, p := range pods {
		if p.Status.Phase == corev1.PodRunning && ready(&p) {
			out[p.Labels[subsetLabel]]++
		}
	}
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

func describeCounts(m map[string]int) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}

// waitPods waits until exactly want running, ready pods per subset are selected (and
// no other live pod).
func waitPods(t *testing.T, c *framework.Cluster, ns, selector string, want map[string]int, within time.Duration) []corev1.Pod {
	t.Helper()
	var pods []corev1.Pod
	framework.WaitFor(t, within, func() (bool, error) {
		pods = livePods(t, c, ns, selector)
		got := podsPerSubset(pods)
		total := 0
		for _, n := range want {
			total += n
		}
		if describeCounts(got) != describeCounts(want) || len(pods) != total {
			return false, fmt.Errorf("ready pods per subset %s (%d live), want %s", describeCounts(got), len(pods), describeCounts(want))
		}
		return true, nil
	})
	return pods
}

// nodeZones maps node names to their zone label.
func nodeZones(t *testing.T, c *framework.Cluster) map[string]string {
	t.Helper()
	nodes, err := c.Client.CoreV1().Nodes().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, n := range nodes.Items {
		out[n.Name] = n.Labels[zoneLabel]
	}
	return out
}

// waitUD polls the UnitedDeployment until done, and returns it.
func waitUD(t *testing.T, c *framework.Cluster, ns, name string, within time.Duration, done func(*v1beta1.UnitedDeployment) bool) *v1beta1.UnitedDeployment {
	t.Helper()
	var ud *v1beta1.UnitedDeployment
	framework.WaitFor(t, within, func() (bool, error) {
		var err error
		ud, err = kruise(c).AppsV1beta1().UnitedDeployments(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if !done(ud) {
			s := ud.Status
			return false, fmt.Errorf("status: replicas %d ready %d updated %d subsetReplicas %v conditions %+v",
				s.Replicas, s.ReadyReplicas, s.UpdatedReplicas, s.SubsetReplicas, s.Conditions)
		}
		return true, nil
	})
	return ud
}
