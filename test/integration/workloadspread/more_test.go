package workloadspread

import (
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A Deployment's pods (created by its ReplicaSet with a generateName) are traced to the
// Deployment and spread: 2 in zone a, the rest in zone c.
func TestDeploymentTarget(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	manifest := `apiVersion: apps.kruise.io/v1alpha1
kind: WorkloadSpread
metadata:
  name: deploy
spec:
  targetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: deploy
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
kind: Deployment
metadata:
  name: deploy
spec:
  replicas: 5
  selector:
    matchLabels:
      app: deploy
  template:
    metadata:
      labels:
        app: deploy
    spec:
      containers:
      - name: nginx
        image: nginx:alpine
`
	if out, err := c.KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v: %s", err, out)
	}
	waitZones(t, ns, "deploy", 2*time.Minute, map[string]int{"a": 2, "c": 3})
}

// Adaptive: the first subset's zone has no node, so its pods stay unschedulable; after
// rescheduleCriticalSeconds the controller marks the subset unschedulable and deletes
// them, and their replacements go to zone b.
func TestAdaptiveMovesPodsOutOfAZoneWithoutRoom(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	manifest := `apiVersion: apps.kruise.io/v1alpha1
kind: WorkloadSpread
metadata:
  name: adaptive
spec:
  targetRef:
    apiVersion: apps.kruise.io/v1alpha1
    kind: CloneSet
    name: adaptive
  subsets:
  - name: subset-x
    requiredNodeSelectorTerm:
      matchExpressions:
      - {key: topology.kubernetes.io/zone, operator: In, values: [x]}
    maxReplicas: 2
  - name: subset-b
    requiredNodeSelectorTerm:
      matchExpressions:
      - {key: topology.kubernetes.io/zone, operator: In, values: [b]}
  scheduleStrategy:
    type: Adaptive
    adaptive:
      rescheduleCriticalSeconds: 3
---
apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata:
  name: adaptive
spec:
  replicas: 4
  selector:
    matchLabels:
      app: adaptive
  template:
    metadata:
      labels:
        app: adaptive
    spec:
      containers:
      - name: nginx
        image: nginx:alpine
`
	if out, err := c.KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v: %s", err, out)
	}
	waitZones(t, ns, "adaptive", 2*time.Minute, map[string]int{"b": 4})
}
