package uniteddeployment

import (
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// OpenKruise v1.9's adaptive.reserveUnschedulablePods: zone y has no node, so the pods
// of subset-y cannot be scheduled. They are kept (reserved, counted in
// status.reservedPods) rather than deleted, and subset-a runs temporary pods for them.
// Once a node of zone y joins, the reserved pods start (the same pods) and the
// temporary pods go. The manifest uses v1.9's unschedulableDuration.
func TestAdaptiveReservesUnschedulablePods(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	apply(t, c, ns, `
apiVersion: apps.kruise.io/v1alpha1
kind: UnitedDeployment
metadata:
  name: reserve
spec:
  replicas: 3
  selector:
    matchLabels:
      app: reserve
  template:
    cloneSetTemplate:
      metadata:
        labels:
          app: reserve
      spec:
        selector:
          matchLabels:
            app: reserve
        template:
          metadata:
            labels:
              app: reserve
          spec:
            containers:
            - name: nginx
              image: nginx:alpine
  topology:
    scheduleStrategy:
      type: Adaptive
      adaptive:
        rescheduleCriticalSeconds: 2
        unschedulableDuration: 5
        reserveUnschedulablePods: true
    subsets:
    - name: subset-y
      nodeSelectorTerm:
        matchExpressions:
        - {key: topology.kubernetes.io/zone, operator: In, values: ["y"]}
      maxReplicas: 2
    - name: subset-a
      nodeSelectorTerm:
        matchExpressions:
        - {key: topology.kubernetes.io/zone, operator: In, values: ["a"]}
`)
	const selector = "app=reserve"
	out, _, err := c.Kubectl(t, "get", "uniteddeployments.v1alpha1.apps.kruise.io", "reserve", "-n", ns,
		"-o", "jsonpath={.spec.topology.scheduleStrategy.adaptive.unschedulableDuration} {.spec.topology.scheduleStrategy.adaptive.reserveUnschedulablePods}")
	if err != nil || out != "5 true" {
		t.Fatalf("stored adaptive strategy %q (%v), want unschedulableDuration 5 and reserveUnschedulablePods true", out, err)
	}

	// subset-y's two pods wait in place; subset-a runs its one and two temporary pods.
	pendingY := func(pods []corev1.Pod) []types.UID {
		var out []types.UID
		for _, p := range pods {
			if p.Labels[subsetLabel] == "subset-y" && p.Spec.NodeName == "" {
				out = append(out, p.UID)
			}
		}
		slices.Sort(out)
		return out
	}
	var reserved []types.UID
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		pods := livePods(t, c, ns, selector)
		reserved = pendingY(pods)
		ready := podsPerSubset(pods)
		if len(reserved) != 2 || ready["subset-a"] != 3 || len(pods) != 5 {
			return false, fmt.Errorf("pending in subset-y %d, ready %s, live %d; want 2 pending and subset-a=3", len(reserved), describeCounts(ready), len(pods))
		}
		return true, nil
	})
	ud := waitUD(t, c, ns, "reserve", time.Minute, func(ud *v1beta1.UnitedDeployment) bool {
		return ud.Status.ReservedPods == 2 && subsetStatus(ud, "subset-y").ReservedPods == 2 &&
			subsetStatus(ud, "subset-a").ReadyReplicas == 3
	})
	if cond := subsetCondition(ud, "subset-y"); cond == nil || cond.Status != corev1.ConditionFalse {
		t.Errorf("subset-y Schedulable condition %+v, want False", cond)
	}
	// Reserved pods are kept, not deleted and recreated.
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		got := pendingY(livePods(t, c, ns, selector))
		return slices.Equal(got, reserved), fmt.Sprintf("subset-y's pending pods %v, want the reserved %v kept", got, reserved)
	})

	// Room in zone y: the reserved pods start, then the temporary pods go.
	c.JoinNode(t, "kwok-node-zone-y", map[string]string{zoneLabel: "y"})
	pods := waitPods(t, c, ns, selector, map[string]int{"subset-y": 2, "subset-a": 1}, 2*time.Minute)
	checkZones(t, c, pods)
	var started []types.UID
	for _, p := range pods {
		if p.Labels[subsetLabel] == "subset-y" {
			started = append(started, p.UID)
		}
	}
	slices.Sort(started)
	if !slices.Equal(started, reserved) {
		t.Errorf("subset-y runs pods %v, want the reserved pods %v", started, reserved)
	}
	waitUD(t, c, ns, "reserve", time.Minute, func(ud *v1beta1.UnitedDeployment) bool {
		cond := subsetCondition(ud, "subset-y")
		return ud.Status.ReservedPods == 0 && subsetStatus(ud, "subset-y").ReadyReplicas == 2 &&
			cond != nil && cond.Status == corev1.ConditionTrue
	})
}

func subsetStatus(ud *v1beta1.UnitedDeployment, subset string) v1beta1.UnitedDeploymentSubsetStatus {
	for _, s := range ud.Status.SubsetStatuses {
		if s.Name == subset {
			return s
		}
	}
	return v1beta1.UnitedDeploymentSubsetStatus{}
}
