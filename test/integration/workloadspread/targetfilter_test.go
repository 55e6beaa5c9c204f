package workloadspread

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// targetFilter (OpenKruise v1.5+): the spread manages only the target's pods its
// selector matches — here the StatefulSet pods with index 0 to 3 — and takes the
// replicas from replicasPathList. Those four are placed (2 in zone a, its cap, 2 in
// zone c) and counted; pods 4 and 5 are created as they are, without a subset.
func TestTargetFilterSpreadsSelectedPodsOnly(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	manifest := `apiVersion: apps.kruise.io/v1alpha1
kind: WorkloadSpread
metadata:
  name: filt
spec:
  targetRef:
    apiVersion: apps/v1
    kind: StatefulSet
    name: filt
  targetFilter:
    selector:
      matchExpressions:
      - {key: apps.kubernetes.io/pod-index, operator: In, values: ["0", "1", "2", "3"]}
    replicasPathList:
    - spec.replicas
  subsets:
  - name: subset-a
    requiredNodeSelectorTerm:
      matchExpressions:
      - {key: topology.kubernetes.io/zone, operator: In, values: [a]}
    maxReplicas: 2
  - name: subset-c
    requiredNodeSelectorTerm:
      matchExpressions:
      - {key: topology.kubernetes.io/zone, operator: In, values: [c]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: filt
spec:
  replicas: 6
  serviceName: filt
  podManagementPolicy: Parallel
  selector:
    matchLabels:
      app: filt
  template:
    metadata:
      labels:
        app: filt
    spec:
      containers:
      - name: nginx
        image: nginx:alpine
`
	if out, err := c.KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v: %s", err, out)
	}
	var last []placement
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		last = podsOf(t, ns, "filt")
		if len(last) != 6 {
			return false, nil
		}
		zones := map[string]int{}
		for _, p := range last { // sorted by name: filt-0 … filt-5
			selected := p.pod < "filt-4"
			if selected && (p.zone == "" || p.subset != "subset-"+p.zone || p.cost == "") {
				return false, nil
			}
			if !selected && (p.subset != "" || p.cost != "") {
				return false, fmt.Errorf("pod %s is not selected by the filter but was placed: %s", p.pod, describe(last))
			}
			if selected {
				zones[p.zone]++
			}
		}
		return zones["a"] == 2 && zones["c"] == 2, nil
	})
	ws, err := kruise(t).AppsV1alpha1().WorkloadSpreads(ns).Get(context.Background(), "filt", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var counted int32
	for _, s := range ws.Status.SubsetStatuses {
		counted += s.Replicas
	}
	if counted != 4 {
		t.Errorf("subsets count %d pods, want the 4 selected: %+v", counted, ws.Status.SubsetStatuses)
	}
	if ws.Spec.TargetFilter == nil || len(ws.Spec.TargetFilter.ReplicasPathList) != 1 {
		t.Errorf("targetFilter not stored: %+v", ws.Spec.TargetFilter)
	}
}
