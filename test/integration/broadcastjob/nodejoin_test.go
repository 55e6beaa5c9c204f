package broadcastjob

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

// A node that joins while a completionPolicy Never job runs gets its pod, pinned to it,
// once kwok reports it Ready.
func TestNodeJoiningANeverJobGetsItsPod(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	apply(t, c, ns, `
apiVersion: apps.kruise.io/v1beta1
kind: BroadcastJob
metadata:
  name: never
spec:
  completionPolicy:
    type: Never
  template:
    metadata:
      annotations:
        `+annotationRunTime+`: 1s
    spec:
      restartPolicy: Never
      containers:
      - name: c
        image: busybox
`)
	nodes := int32(c.Nodes)
	waitJob(t, c, ns, "never", time.Minute, func(j *v1beta1.BroadcastJob) bool {
		return j.Status.Succeeded == nodes && j.Status.Active == 0 && j.Status.Phase == v1beta1.PhaseRunning
	})

	node := joinNode(t, c, "kwok-node-joined")
	job := waitJob(t, c, ns, "never", time.Minute, func(j *v1beta1.BroadcastJob) bool {
		return j.Status.Desired == nodes+1 && j.Status.Succeeded == nodes+1
	})
	if finished(job) {
		t.Errorf("a Never job finished: %s", describe(job.Status))
	}
	var onNode []string
	for _, p := range jobPods(t, c, ns, "never") {
		if p.Spec.NodeName == node {
			onNode = append(onNode, p.Name)
			if !pinnedTo(&p, node) {
				t.Errorf("pod %s not pinned to %s: affinity %+v", p.Name, node, p.Spec.Affinity)
			}
		}
	}
	if len(onNode) != 1 {
		t.Errorf("pods pinned to the joined node: %v, want one", onNode)
	}
}

// joinNode adds a kwok node as hack/local-up.sh makes them (kwok manages the nodes with
// the kwok.x-k8s.io/node: fake annotation and reports them Ready), waits until it is
// Ready, and deletes it when the test ends.
func joinNode(t *testing.T, c *framework.Cluster, name string) string {
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
				"kubernetes.io/arch": "amd64", "topology.kubernetes.io/zone": "a"},
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
		if !ready(n) {
			return false, fmt.Errorf("node %s not Ready: %+v", name, n.Status.Conditions)
		}
		return true, nil
	})
	return name
}

func ready(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// pinnedTo: the pod's required node affinity names node by metadata.name, as a
// DaemonSet's pods do.
func pinnedTo(p *corev1.Pod, node string) bool {
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return false
	}
	for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, f := range term.MatchFields {
			if f.Key == "metadata.name" && len(f.Values) == 1 && f.Values[0] == node {
				return true
			}
		}
	}
	return false
}
