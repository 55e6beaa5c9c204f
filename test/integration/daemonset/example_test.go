package daemonset

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// The documented manifest, applied unchanged, runs one pod on every node, each pinned
// to its node by a required node affinity and bound there by the scheduler, and
// reports it in status; its rollout, limited by the selector to node1, replaces
// node1's pod only.
func TestExampleOnePodPerNode(t *testing.T) {
	addNode(t, "node1", nil)
	applyExample(t, "advanced-daemonset.yaml")
	const ns, name = "default", "nginx"
	nodes := nodeNames(t)
	desired := int32(len(nodes))
	ds := waitStatus(t, ns, name, 2*time.Minute, func(s v1beta1.DaemonSetStatus) bool { return settled(s, desired) })
	if ds.Status.UpdateRevision == "" {
		t.Errorf("status.updateRevision empty: %+v", ds.Status)
	}
	before := waitOnePodPerNode(t, ns, ds, nodes)
	for node, pod := range before {
		terms := pod.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
		if len(terms) != 1 || len(terms[0].MatchFields) != 1 || terms[0].MatchFields[0].Key != "metadata.name" ||
			terms[0].MatchFields[0].Values[0] != node {
			t.Errorf("pod %s on %s: required node affinity %+v, want metadata.name in [%s]", pod.Name, node, terms, node)
		}
		if revisionOf(pod) != ds.Status.UpdateRevision {
			t.Errorf("pod %s at revision %q, want %q", pod.Name, revisionOf(pod), ds.Status.UpdateRevision)
		}
	}

	setImage(t, ns, name, "nginx:1.9.1")
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		pods := podsByNode(t, ns, ds)["node1"]
		if len(pods) != 1 || !ready(&pods[0]) {
			return false, fmt.Errorf("node1 runs %d pods", len(pods))
		}
		image, _ := imageOf(pods[0])
		return image == "nginx:1.9.1" && pods[0].UID != before["node1"].UID, nil
	})
	waitStatus(t, ns, name, time.Minute, func(s v1beta1.DaemonSetStatus) bool {
		return s.UpdatedNumberScheduled == 1 && s.NumberReady == desired && s.DesiredNumberScheduled == desired
	})
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		// Every node that ran a pod before, so one whose pod went fails too.
		byNode := podsByNode(t, ns, ds)
		for node := range before {
			if node == "node1" {
				continue
			}
			pods := byNode[node]
			if len(pods) != 1 || pods[0].UID != before[node].UID || pods[0].Spec.Containers[0].Image != "nginx:1.7.9" {
				return false, fmt.Sprintf("node %s outside the rollout selector now runs %v", node, describe(pods))
			}
		}
		return true, ""
	})
}

func describe(pods []corev1.Pod) []string {
	var out []string
	for _, p := range pods {
		image, restarts := imageOf(p)
		out = append(out, fmt.Sprintf("%s(uid %s, %s, restarts %d)", p.Name, p.UID, image, restarts))
	}
	return out
}
