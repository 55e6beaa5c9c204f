package workloadspread

import (
	"context"
	"fmt"
	"testing"
	"time"

	appsv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const capManifest = `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata:
  name: capped
spec:
  replicas: 0
  selector:
    matchLabels:
      app: capped
  template:
    metadata:
      labels:
        app: capped
    spec:
      containers:
      - name: nginx
        image: nginx:alpine
---
apiVersion: apps.kruise.io/v1beta1
kind: WorkloadSpread
metadata:
  name: capped
spec:
  targetRef:
    apiVersion: apps.kruise.io/v1beta1
    kind: CloneSet
    name: capped
  subsets:
  - name: subset-a
    requiredNodeSelectorTerm:
      matchExpressions:
      - {key: topology.kubernetes.io/zone, operator: In, values: [a]}
    maxReplicas: 3
  - name: subset-b
    requiredNodeSelectorTerm:
      matchExpressions:
      - {key: topology.kubernetes.io/zone, operator: In, values: [b]}
`

// A CloneSet scaled from 0 to 20 at once: its 20 pods are created concurrently, zone a
// takes exactly 3 and zone b the other 17. Scaled down to 5, zone b empties first:
// 3 in a, 2 in b; to 3, only zone a is left.
func TestCapHoldsUnderConcurrentCreatesAndScaleDownEmptiesLastSubset(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	if out, err := c.KubectlStdin(t, capManifest, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v: %s", err, out)
	}
	waitCounted(t, ns, "capped", time.Minute, func(s []appsv1alpha1.WorkloadSpreadSubsetStatus) bool {
		return s[0].MissingReplicas == 3 && s[1].MissingReplicas == -1
	})
	scaleCloneSet(t, ns, "capped", 20)
	waitZones(t, ns, "capped", 3*time.Minute, map[string]int{"a": 3, "b": 17})
	waitCounted(t, ns, "capped", time.Minute, func(s []appsv1alpha1.WorkloadSpreadSubsetStatus) bool {
		return s[0].MissingReplicas == 0 && len(s[0].CreatingPods)+len(s[1].CreatingPods) == 0
	})

	scaleCloneSet(t, ns, "capped", 5)
	waitZones(t, ns, "capped", 2*time.Minute, map[string]int{"a": 3, "b": 2})
	scaleCloneSet(t, ns, "capped", 3)
	waitZones(t, ns, "capped", 2*time.Minute, map[string]int{"a": 3})

	// Room again in zone b only: scaling back up never puts a 4th pod in zone a.
	scaleCloneSet(t, ns, "capped", 8)
	waitZones(t, ns, "capped", 2*time.Minute, map[string]int{"a": 3, "b": 5})
	ws, err := kruise(t).AppsV1alpha1().WorkloadSpreads(ns).Get(context.Background(), "capped", metav1GetOptions())
	if err != nil {
		t.Fatal(err)
	}
	if m := ws.Status.SubsetStatuses[0].MissingReplicas; m != 0 {
		t.Errorf("subset-a missingReplicas %d, want 0: %s", m, fmt.Sprint(ws.Status.SubsetStatuses))
	}
}
