package uniteddeployment

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// Adaptive scheduling: zone x has no node, so the pods of subset-x stay unschedulable;
// after rescheduleCriticalSeconds its replicas move to subset-a. Once a node of zone x
// joins and unschedulableLastSeconds have passed, subset-x gets its replicas back.
func TestAdaptiveMovesPodsOutOfAFullZoneAndBack(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	apply(t, c, ns, `
apiVersion: apps.kruise.io/v1alpha1
kind: UnitedDeployment
metadata:
  name: elastic
spec:
  replicas: 3
  selector:
    matchLabels:
      app: elastic
  template:
    cloneSetTemplate:
      metadata:
        labels:
          app: elastic
      spec:
        selector:
          matchLabels:
            app: elastic
        template:
          metadata:
            labels:
              app: elastic
          spec:
            containers:
            - name: nginx
              image: nginx:alpine
  topology:
    scheduleStrategy:
      type: Adaptive
      adaptive:
        rescheduleCriticalSeconds: 2
        unschedulableLastSeconds: 10
    subsets:
    - name: subset-x
      nodeSelectorTerm:
        matchExpressions:
        - {key: topology.kubernetes.io/zone, operator: In, values: ["x"]}
      maxReplicas: 2
    - name: subset-a
      nodeSelectorTerm:
        matchExpressions:
        - {key: topology.kubernetes.io/zone, operator: In, values: ["a"]}
`)
	const selector = "app=elastic"
	pods := waitPods(t, c, ns, selector, map[string]int{"subset-a": 3}, 2*time.Minute)
	checkZones(t, c, pods)
	ud := waitUD(t, c, ns, "elastic", time.Minute, func(ud *v1beta1.UnitedDeployment) bool {
		return ud.Status.SubsetReplicas["subset-x"] == 0 && ud.Status.SubsetReplicas["subset-a"] == 3
	})
	if cond := subsetCondition(ud, "subset-x"); cond == nil || cond.Status != corev1.ConditionFalse {
		t.Errorf("subset-x Schedulable condition %+v, want False", cond)
	}

	joinNode(t, c, "kwok-node-zone-x", "x")
	pods = waitPods(t, c, ns, selector, map[string]int{"subset-x": 2, "subset-a": 1}, 2*time.Minute)
	checkZones(t, c, pods)
	ud = waitUD(t, c, ns, "elastic", time.Minute, func(ud *v1beta1.UnitedDeployment) bool {
		cond := subsetCondition(ud, "subset-x")
		return ud.Status.SubsetReplicas["subset-x"] == 2 && cond != nil && cond.Status == corev1.ConditionTrue
	})
}

func subsetCondition(ud *v1beta1.UnitedDeployment, subset string) *v1beta1.UnitedDeploymentSubsetCondition {
	for _, s := range ud.Status.SubsetStatuses {
		if s.Name != subset {
			continue
		}
		for i := range s.Conditions {
			if s.Conditions[i].Type == v1beta1.UnitedDeploymentSubsetSchedulable {
				return &s.Conditions[i]
			}
		}
	}
	return nil
}

// joinNode adds a kwok node in zone, as hack/local-up.sh makes them (kwok manages
// nodes annotated kwok.x-k8s.io/node: fake), waits until it is Ready without taints,
// and deletes it when the test ends.
func joinNode(t *testing.T, c *framework.Cluster, name, zone string) {
	t.Helper()
	ctx := context.Background()
	capacity := corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("32"), corev1.ResourceMemory: resource.MustParse("256Gi"), corev1.ResourcePods: resource.MustParse("250"),
	}
	node := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Annotations: map[string]string{"kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0"},
			Labels: map[string]string{"type": "kwok", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
				"kubernetes.io/arch": "amd64", zoneLabel: zone},
		},
		Status: corev1.NodeStatus{Allocatable: capacity, Capacity: capacity, NodeInfo: corev1.NodeSystemInfo{
			Architecture: "amd64", OperatingSystem: "linux", KubeletVersion: "fake", KubeProxyVersion: "fake", ContainerRuntimeVersion: "kwok",
		}},
	}
	if _, err := c.Client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Client.CoreV1().Nodes().Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting node %s: %v", name, err)
		}
	})
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		n, err := c.Client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		readyNode := false
		for _, cond := range n.Status.Conditions {
			readyNode = readyNode || (cond.Type == corev1.NodeReady && cond.Status == corev1.ConditionTrue)
		}
		if !readyNode || len(n.Spec.Taints) > 0 {
			return false, fmt.Errorf("node %s not Ready and untainted: %+v %+v", name, n.Status.Conditions, n.Spec.Taints)
		}
		return true, nil
	})
}
