package uniteddeployment

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

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

	c.JoinNode(t, "kwok-node-zone-x", map[string]string{zoneLabel: "x"})
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
