package broadcastjob

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

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

	const node = "kwok-node-joined"
	c.JoinNode(t, node, map[string]string{"topology.kubernetes.io/zone": "a"})
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
