package podprobemarker

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func kruise(t *testing.T) kruiseclient.Interface {
	return kruiseclient.NewForConfigOrDie(framework.Get(t).Config)
}

func condition(pod *corev1.Pod, t corev1.PodConditionType) *corev1.PodCondition {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == t {
			return &pod.Status.Conditions[i]
		}
	}
	return nil
}

func waitPod(t *testing.T, ns, name string, timeout time.Duration, cond func(*corev1.Pod) bool) *corev1.Pod {
	t.Helper()
	var pod *corev1.Pod
	framework.WaitFor(t, timeout, func() (bool, error) {
		var err error
		pod, err = framework.Get(t).Client.CoreV1().Pods(ns).Get(context.Background(), name, metav1.GetOptions{})
		return err == nil && cond(pod), err
	})
	return pod
}

// controllerWrites returns kruise-controller's writes so far of resource (e.g.
// "pods/status") with verb (e.g. "PATCH").
func controllerWrites(t *testing.T, resource, verb string) float64 {
	t.Helper()
	return framework.Get(t).MetricSum(t, "kruise-controller", "kruise_controller_api_writes_total", `resource="`+resource+`"`, `verb="`+verb+`"`)
}

// daemonStatusWrites returns the NodePodProbe status writes node's daemon made so far.
func daemonStatusWrites(t *testing.T, node string) float64 {
	t.Helper()
	return framework.Get(t).MetricSum(t, "kruise-node-daemon-"+node, "kruise_node_daemon_probe_status_writes_total", `result="written"`)
}
