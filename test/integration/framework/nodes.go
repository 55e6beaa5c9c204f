package framework

import (
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// KwokNode is a Node that kwok plays the kubelet of, shaped as the stack's own nodes
// (the kwok.x-k8s.io/node annotation kwok selects by, their labels and capacity),
// with labels added or overriding.
func KwokNode(name string, labels map[string]string) *corev1.Node {
	all := map[string]string{"type": "kwok", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64"}
	maps.Copy(all, labels)
	capacity := corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("32"), corev1.ResourceMemory: resource.MustParse("256Gi"), corev1.ResourcePods: resource.MustParse("250"),
	}
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Labels:      all,
			Annotations: map[string]string{"kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0"},
		},
		Status: corev1.NodeStatus{Allocatable: capacity, Capacity: capacity, NodeInfo: corev1.NodeSystemInfo{
			Architecture: "amd64", OperatingSystem: "linux", KubeletVersion: "fake", KubeProxyVersion: "fake", ContainerRuntimeVersion: "kwok",
		}},
	}
}

// JoinNode adds KwokNode(name, labels) to the cluster, deletes it when the test ends,
// and waits until kwok reports it Ready and kube-controller-manager has lifted its
// taints, so that schedulers and node-placing controllers take it.
func (c *Cluster) JoinNode(t testing.TB, name string, labels map[string]string) {
	t.Helper()
	ctx := context.Background()
	if _, err := c.Client.CoreV1().Nodes().Create(ctx, KwokNode(name, labels), metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating node %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := c.Client.CoreV1().Nodes().Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting node %s: %v", name, err)
		}
	})
	WaitFor(t, time.Minute, func() (bool, error) {
		n, err := c.Client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		ready := false
		for _, cond := range n.Status.Conditions {
			ready = ready || (cond.Type == corev1.NodeReady && cond.Status == corev1.ConditionTrue)
		}
		if !ready || len(n.Spec.Taints) > 0 {
			return false, fmt.Errorf("node %s not Ready and untainted: %+v %+v", name, n.Status.Conditions, n.Spec.Taints)
		}
		return true, nil
	})
}
