package localstack

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ensureNodes creates the kwok nodes (annotated kwok.x-k8s.io/node=fake, zones a/b/c
// round robin) and waits until they are Ready and kube-controller-manager has removed the
// not-ready taint, so pods schedule right away.
func (s *Stack) ensureNodes(ctx context.Context) error {
	if s.Nodes == 0 {
		s.logf("NODES=0: no kwok nodes")
		return nil
	}
	zones := []string{"a", "b", "c"}
	var b strings.Builder
	for i := 0; i < s.Nodes; i++ {
		name := NodeName(i)
		fmt.Fprintf(&b, `---
apiVersion: v1
kind: Node
metadata:
  name: %[1]s
  annotations:
    kwok.x-k8s.io/node: fake
    node.alpha.kubernetes.io/ttl: "0"
  labels:
    type: kwok
    kubernetes.io/hostname: %[1]s
    kubernetes.io/os: linux
    kubernetes.io/arch: amd64
    topology.kubernetes.io/zone: %[2]s
status:
  allocatable: {cpu: "32", memory: 256Gi, pods: "250"}
  capacity: {cpu: "32", memory: 256Gi, pods: "250"}
  nodeInfo:
    architecture: amd64
    operatingSystem: linux
    kubeletVersion: fake
    kubeProxyVersion: fake
    containerRuntimeVersion: kwok
`, name, zones[i%3])
	}
	if err := s.kubectl(ctx, []byte(b.String()), "apply", "-f", "-"); err != nil {
		return fmt.Errorf("cannot create the kwok nodes: %w", err)
	}
	s.logf("waiting for %d kwok nodes to be Ready and schedulable", s.Nodes)
	c, err := s.adminClient()
	if err != nil {
		return err
	}
	err = s.poll(ctx, Kwok, "kwok nodes Ready and untainted", func(ctx context.Context) error {
		nodes, err := c.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: "type=kwok"})
		if err != nil {
			return err
		}
		got := 0
		for _, n := range nodes.Items {
			if nodeSchedulable(&n) {
				got++
			}
		}
		if got < s.Nodes {
			return fmt.Errorf("only %d/%d kwok nodes Ready and untainted", got, s.Nodes)
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.logf("%d kwok nodes Ready", s.Nodes)
	return nil
}

func nodeSchedulable(n *corev1.Node) bool {
	ready := false
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady && c.Status == corev1.ConditionTrue {
			ready = true
		}
	}
	for _, t := range n.Spec.Taints {
		if strings.Contains(t.Key, "not-ready") || strings.Contains(t.Key, "unreachable") || strings.Contains(t.Key, "uninitialized") {
			return false
		}
	}
	return ready
}
