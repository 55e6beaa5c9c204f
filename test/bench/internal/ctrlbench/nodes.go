package ctrlbench

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// AddKwokNodes makes kwok-node-<have>..kwok-node-<want-1> as hack/local-up.sh makes the
// stack's nodes (kwok manages those annotated kwok.x-k8s.io/node: fake and reports them
// Ready), so that a job can run one pod on each of want nodes, and waits until they are
// Ready. They have no node daemon: nothing the job benchmark needs. remove deletes them.
func AddKwokNodes(ctx context.Context, kube kubernetes.Interface, have, want int) (remove func(context.Context), err error) {
	var names []string
	remove = func(ctx context.Context) {
		for _, name := range names {
			if err := kube.CoreV1().Nodes().Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				klog.FromContext(ctx).Error(err, "Deleting a benchmark node", "node", name)
			}
		}
	}
	capacity := corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("32"), corev1.ResourceMemory: resource.MustParse("256Gi"), corev1.ResourcePods: resource.MustParse("250"),
	}
	zones := []string{"a", "b", "c"}
	for i := have; i < want; i++ {
		name := fmt.Sprintf("kwok-node-%d", i)
		node := &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{
				Name:        name,
				Annotations: map[string]string{"kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0"},
				Labels: map[string]string{"type": "kwok", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
					"kubernetes.io/arch": "amd64", "topology.kubernetes.io/zone": zones[i%len(zones)]},
			},
			Status: corev1.NodeStatus{Allocatable: capacity, Capacity: capacity, NodeInfo: corev1.NodeSystemInfo{
				Architecture: "amd64", OperatingSystem: "linux", KubeletVersion: "fake", KubeProxyVersion: "fake", ContainerRuntimeVersion: "kwok",
			}},
		}
		if _, err := kube.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
			remove(ctx)
			return nil, fmt.Errorf("creating node %s: %w", name, err)
		}
		names = append(names, name)
	}
	// Ready, and kube-controller-manager has taken the not-ready taint off (as
	// local-up.sh waits for its nodes): only then do pods schedule at once.
	err = wait.PollUntilContextTimeout(ctx, 500*time.Millisecond, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		list, err := kube.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: "type=kwok"})
		if err != nil {
			return false, nil
		}
		ready := 0
		for i := range list.Items {
			if nodeReady(&list.Items[i]) {
				ready++
			}
		}
		return ready >= want, nil
	})
	if err != nil {
		remove(ctx)
		return nil, fmt.Errorf("waiting for %d kwok nodes to be Ready: %w", want, err)
	}
	return remove, nil
}

func nodeReady(n *corev1.Node) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == corev1.TaintNodeNotReady || t.Key == corev1.TaintNodeUnreachable {
			return false
		}
	}
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
