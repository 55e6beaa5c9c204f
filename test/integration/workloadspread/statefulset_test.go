package workloadspread

import (
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A native apps/v1 StatefulSet (OpenKruise v1.5+ accepts one as the target): its pods,
// created by kube's StatefulSet controller, are spread — 2 in zone a, the rest in zone c.
func TestNativeStatefulSetTarget(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	manifest := `apiVersion: apps.kruise.io/v1alpha1
kind: WorkloadSpread
metadata:
  name: sts
spec:
  targetRef:
    apiVersion: apps/v1
    kind: StatefulSet
    name: sts
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
  name: sts
spec:
  replicas: 5
  serviceName: sts
  podManagementPolicy: Parallel
  selector:
    matchLabels:
      app: sts
  template:
    metadata:
      labels:
        app: sts
    spec:
      containers:
      - name: nginx
        image: nginx:alpine
`
	if out, err := c.KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v: %s", err, out)
	}
	waitZones(t, ns, "sts", 2*time.Minute, map[string]int{"a": 2, "c": 3})
}
