package persistentpodstate

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const zoneKey = "topology.kubernetes.io/zone"

// An Advanced StatefulSet annotated as OpenKruise documents gets a generated
// PersistentPodState (controlled by it) that records each pod's zone; a pod deleted
// while its node is cordoned comes back, under the same name, with required affinity
// to its recorded zone and lands on the other node of that zone — of four nodes in two
// zones only that one qualifies. Deleting the workload deletes the generated object.
func TestRecreatedPodReturnsToItsZone(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	// Two zones of two kwok nodes each, labelled for this test only: the set's pods go
	// nowhere else (nodeSelector), so its zones are these.
	nodeZone := map[string]string{}
	for i, zone := range []string{"pps-p", "pps-p", "pps-q", "pps-q"} {
		name := fmt.Sprintf("%s-n%d", ns, i)
		c.JoinNode(t, name, map[string]string{zoneKey: zone, "pps-test": ns})
		nodeZone[name] = zone
	}
	manifest := fmt.Sprintf(`apiVersion: apps.kruise.io/v1beta1
kind: StatefulSet
metadata:
  name: web
  annotations:
    kruise.io/auto-generate-persistent-pod-state: "true"
    kruise.io/required-persistent-topology: topology.kubernetes.io/zone
    kruise.io/preferred-persistent-topology: kubernetes.io/hostname
spec:
  serviceName: web
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      nodeSelector: {pps-test: %s}
      containers:
      - name: main
        image: nginx:alpine
`, ns)
	if out, err := c.KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v: %s", err, out)
	}
	pps := waitRecorded(t, ns, "web", "web-0", "web-1")
	if ref := metav1.GetControllerOf(pps); ref == nil || ref.Kind != "StatefulSet" || ref.Name != "web" {
		t.Errorf("generated PersistentPodState not controlled by the set: %+v", pps.OwnerReferences)
	}
	if r := pps.Spec.RequiredPersistentTopology; r == nil || len(r.Keys) != 1 || r.Keys[0] != zoneKey {
		t.Errorf("generated spec: %+v", pps.Spec)
	}
	// Created, the generated object widened the mutating Pod webhook's call scope to
	// its set's pod creates (its clause), or the recreated pod would never be sent.
	if clauses, narrowed := c.PodWebhookCallScope(t, podwebhook.Mutating); narrowed {
		if _, ok := clauses["persistentpodstate/"+ns+"/web"]; !ok {
			t.Errorf("the mutating Pod webhook's scope has no clause for the PersistentPodState: %v", clauses)
		}
	}
	recorded := pps.Status.PodStates["web-0"]
	if want := nodeZone[recorded.NodeName]; want == "" || recorded.NodeTopologyLabels[zoneKey] != want ||
		recorded.NodeTopologyLabels["kubernetes.io/hostname"] != recorded.NodeName {
		t.Fatalf("web-0 recorded as %+v; node zones %v", recorded, nodeZone)
	}

	// The pod may not go back to its node: only its zone's other node qualifies.
	cordon(t, recorded.NodeName, true)
	t.Cleanup(func() { cordon(t, recorded.NodeName, false) })
	pod := recreate(t, ns, "web-0")
	zone := recorded.NodeTopologyLabels[zoneKey]
	if got := requiredValue(pod, zoneKey); got != zone {
		t.Errorf("recreated web-0 requires zone %q, want %q (affinity %+v)", got, zone, pod.Spec.Affinity)
	}
	if pod.Annotations["kruise.io/injected-persistent-pod-state"] != "web" {
		t.Errorf("recreated web-0 annotations: %v", pod.Annotations)
	}
	if nodeZone[pod.Spec.NodeName] != zone || pod.Spec.NodeName == recorded.NodeName {
		t.Errorf("recreated web-0 on %s (zone %q), want the other node of zone %q", pod.Spec.NodeName, nodeZone[pod.Spec.NodeName], zone)
	}
	// The record follows the pod to its new node.
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		pps := waitRecorded(t, ns, "web", "web-0")
		return pps.Status.PodStates["web-0"].NodeName == pod.Spec.NodeName, nil
	})

	// Scaled to 1 (WhenScaled, the default): web-1's record goes with web-1.
	if _, _, err := c.Kubectl(t, "scale", "-n", ns, "statefulsets.apps.kruise.io/web", "--replicas=1"); err != nil {
		t.Fatalf("kubectl scale: %v", err)
	}
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		pps, err := kruise(t).AppsV1beta1().PersistentPodStates(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		_, kept := pps.Status.PodStates["web-1"]
		return !kept && len(pps.Status.PodStates) == 1, nil
	})

	// The annotation removed: the generated object is deleted.
	if _, _, err := c.Kubectl(t, "annotate", "-n", ns, "statefulsets.apps.kruise.io/web", "kruise.io/auto-generate-persistent-pod-state-"); err != nil {
		t.Fatalf("kubectl annotate: %v", err)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, err := kruise(t).AppsV1beta1().PersistentPodStates(ns).Get(ctx, "web", metav1.GetOptions{})
		return err != nil, nil
	})
	_, _, _ = c.Kubectl(t, "delete", "-n", ns, "statefulsets.apps.kruise.io", "web", "--wait=true")
}

func cordon(t *testing.T, node string, on bool) {
	t.Helper()
	patch := fmt.Sprintf(`{"spec":{"unschedulable":%t}}`, on)
	if _, err := framework.Get(t).Client.CoreV1().Nodes().Patch(context.Background(), node, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatalf("cordoning %s: %v", node, err)
	}
}
