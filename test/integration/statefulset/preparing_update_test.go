package statefulset

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const preparingUpdateSet = `apiVersion: apps.kruise.io/v1beta1
kind: StatefulSet
metadata:
  name: pu
spec:
  serviceName: pu
  podManagementPolicy: Parallel
  replicas: 3
  updateStrategy:
    type: RollingUpdate
    rollingUpdate:
      podUpdatePolicy: InPlaceIfPossible
      partition: 2
      unorderedUpdate: {}
  lifecycle:
    inPlaceUpdate:
      labelsHandler:
        example.com/prepared: "true"
  selector:
    matchLabels:
      app: pu
  template:
    metadata:
      labels:
        app: pu
        example.com/prepared: "true"
    spec:
      readinessGates:
      - conditionType: InPlaceUpdateReady
      containers:
      - name: main
        image: nginx:1.25
`

// With --feature-gates=PreparingUpdateAsUpdate=true, a pod an inPlaceUpdate hook holds
// in PreparingUpdate counts as updated in an unordered update: a pod of the partition
// deleted by hand comes back at the current revision (without the gate, at the update
// revision, the held pod still counting as current), and the held pod is the one
// updated once its hook lets go.
func TestPreparingUpdateCountsAsUpdatedUnordered(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	c.RestartKruiseControllers(t, "KRUISE_CONTROLLER_ARGS=--feature-gates=PreparingUpdateAsUpdate=true")
	t.Cleanup(func() { c.RestartKruiseControllers(t) })

	ns := c.CreateNamespace(t)
	apply(t, ns, preparingUpdateSet)
	v1 := waitStatus(t, ns, "pu", 2*time.Minute, settled(3))
	current := v1.Status.UpdateRevision
	setImage(t, ns, "pu", "nginx:1.26")

	// The rollout picks one pod (the highest ordinal); the hook holds it.
	var held corev1.Pod
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		for _, p := range livePods(t, ns) {
			if p.Labels[pub.LifecycleStateKey] == string(pub.LifecycleStatePreparingUpdate) {
				held = p
				return true, nil
			}
		}
		return false, nil
	})
	var victim corev1.Pod
	for name, p := range livePods(t, ns) {
		if name != held.Name {
			victim = p
			break
		}
	}
	if err := c.Client.CoreV1().Pods(ns).Delete(ctx, victim.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	var recreated corev1.Pod
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		p, ok := livePods(t, ns)[victim.Name]
		recreated = p
		return ok && p.UID != victim.UID, nil
	})
	if rev := recreated.Labels[pub.ControllerRevisionHashLabelKey]; rev != current {
		t.Fatalf("%s came back at revision %s, want the current %s: the held pod %s counts as updated", victim.Name, rev, current, held.Name)
	}

	// The hook lets go: the held pod, and only it, is updated in place.
	if _, err := c.Client.CoreV1().Pods(ns).Patch(ctx, held.Name, types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"example.com/prepared":null}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	done := waitStatus(t, ns, "pu", 2*time.Minute, func(s v1beta1.StatefulSetStatus) bool {
		return s.Replicas == 3 && s.ReadyReplicas == 3 && s.UpdatedReplicas == 1 && s.UpdatedReadyReplicas == 1
	})
	for name, p := range livePods(t, ns) {
		updated := p.Labels[pub.ControllerRevisionHashLabelKey] == done.Status.UpdateRevision
		if updated != (name == held.Name) {
			t.Errorf("pod %s updated: %v; want only the held pod %s updated", name, updated, held.Name)
		}
		if name == held.Name && p.UID != held.UID {
			t.Errorf("held pod %s was recreated, want it updated in place", name)
		}
	}
}
