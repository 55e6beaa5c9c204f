package workloadspread

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A Deployment's rolling update surges: new pods are created while the old ones still
// fill zone a (maxReplicas 2). The spread counts each pod version on its own
// (status.versionedSubsetStatuses), so the new version's first pods go to zone a too,
// and when the rollout ends the pods are again 2 in zone a, 3 in zone c — counted
// together, zone a would look full to every new pod and end empty.
func TestSurgeRolloutKeepsSubsetCaps(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	manifest := `apiVersion: apps.kruise.io/v1alpha1
kind: WorkloadSpread
metadata:
  name: roll
spec:
  targetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: roll
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
  name: roll
spec:
  replicas: 5
  strategy:
    rollingUpdate: {maxSurge: 2, maxUnavailable: 1}
  selector:
    matchLabels:
      app: roll
  template:
    metadata:
      labels:
        app: roll
    spec:
      containers:
      - name: nginx
        image: nginx:alpine
`
	if out, err := c.KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v: %s", err, out)
	}
	waitZones(t, ns, "roll", 2*time.Minute, map[string]int{"a": 2, "c": 3})

	if _, stderr, err := c.Kubectl(t, "set", "image", "-n", ns, "deployment/roll", "nginx=nginx:1.27"); err != nil {
		t.Fatalf("kubectl set image: %v: %s", err, stderr)
	}
	if _, stderr, err := c.Kubectl(t, "rollout", "status", "-n", ns, "deployment/roll", "--timeout=3m"); err != nil {
		t.Fatalf("kubectl rollout status: %v: %s", err, stderr)
	}
	waitZones(t, ns, "roll", 2*time.Minute, map[string]int{"a": 2, "c": 3})
	ws, err := kruise(t).AppsV1alpha1().WorkloadSpreads(ns).Get(context.Background(), "roll", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws.Status.VersionedSubsetStatuses) == 0 {
		t.Errorf("no versionedSubsetStatuses: %+v", ws.Status)
	}
}
