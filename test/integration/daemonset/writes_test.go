package daemonset

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func controllerWrites(t *testing.T) map[string]float64 {
	t.Helper()
	return framework.Get(t).ControllerWrites(t)
}

// An in-place rollout costs one pod patch per pod plus a few writes for the whole set
// (the new ControllerRevision, a status write per sync that changed it). Issue 16's
// target is at most 1.1 controller writes per pod at 100 nodes; this test, on 20 nodes,
// bounds the two parts apart so that either regression fails it: a second write per
// pod (a lifecycle or status patch coming back), or set writes growing with the pods
// (a status write per pod). With both bounds held the cost at 100 nodes is at most
// (100+setWritesMax)/100 = 1.05.
func TestInPlaceRolloutWritesPerPod(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	const label, n = "ads-writes", 20
	var nodes []string
	for i := 0; i < n; i++ {
		nodes = append(nodes, fmt.Sprintf("ads-w-%02d", i))
		addNode(t, nodes[i], map[string]string{label: "yes"})
	}
	all := intstr.FromString("100%")
	ds := createDS(t, ns, newDaemonSet("agent", label, &v1beta1.RollingUpdateDaemonSet{
		Type: v1beta1.InplaceRollingUpdateType, MaxUnavailable: &all,
	}))
	waitOnePodPerNode(t, ns, ds, nodes)
	waitStatus(t, ns, ds.Name, 2*time.Minute, func(s v1beta1.DaemonSetStatus) bool { return settled(s, n) })
	// The counter is process-wide: let the namespaces of earlier tests finish
	// terminating so their workloads' last writes are not counted here.
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		list, err := c.Client.CoreV1().Namespaces().List(ctx, metav1.ListOptions{LabelSelector: "kruise-native.io/integration-test=true"})
		if err != nil {
			return false, err
		}
		return len(list.Items) == 1, nil
	})

	before := controllerWrites(t)
	setImage(t, ns, ds.Name, "nginx:1.9.1")
	waitStatus(t, ns, ds.Name, 2*time.Minute, func(s v1beta1.DaemonSetStatus) bool { return settled(s, n) })
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		for node, pods := range podsByNode(t, ns, ds) {
			if image, restarts := imageOf(pods[0]); len(pods) != 1 || image != "nginx:1.9.1" || restarts != 1 || !ready(&pods[0]) {
				return false, fmt.Errorf("node %s runs %v", node, describe(pods))
			}
		}
		return true, nil
	})
	after := controllerWrites(t)
	const setWritesMax = 5
	podWrites, setWrites, delta := 0.0, 0.0, map[string]float64{}
	for k, v := range after {
		d := v - before[k]
		if d == 0 {
			continue
		}
		delta[k] = d
		if strings.HasPrefix(k, "pods ") {
			podWrites += d
		} else {
			setWrites += d
		}
	}
	t.Logf("in-place rollout of %d pods: %.2f controller writes per pod (%.0f pod writes, %.0f set writes; at 100 nodes %.2f) %v",
		n, (podWrites+setWrites)/n, podWrites, setWrites, (100+setWrites)/100, delta)
	// Every pod is updated in place, so each was written at least once: fewer means the
	// count is not the controller's (a renamed metric would read as zero writes).
	if podWrites < n {
		t.Errorf("in-place rollout of %d pods counted only %.0f pod writes: the write count is not being read (%v)", n, podWrites, delta)
	}
	if podWrites > n {
		t.Errorf("in-place rollout costs %.2f pod writes per pod, want at most 1 (%v)", podWrites/n, delta)
	}
	if setWrites > setWritesMax {
		t.Errorf("in-place rollout of %d pods costs %.0f writes besides the pods', want at most %d (%v)", n, setWrites, setWritesMax, delta)
	}
}
