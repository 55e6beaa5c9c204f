package workloadspread

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// matchedAnnotation is OpenKruise's key on the pods a WorkloadSpread placed; tools and
// scripts written for OpenKruise read it.
const matchedAnnotation = "apps.kruise.io/matched-workloadspread"

// A subset whose patch gives its pods another priorityClassName: the pods are created
// (kube's Priority admission computes their priority from the patched class instead of
// refusing the template's), carry the class's priority, and say which spread and
// subset placed them under OpenKruise's annotation key.
func TestSubsetPatchPriorityClassAndMatchedAnnotation(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	class := "ws-high-" + ns
	manifest := fmt.Sprintf(`apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: %[1]s
value: 1000
---
apiVersion: apps.kruise.io/v1alpha1
kind: WorkloadSpread
metadata:
  name: prio
  namespace: %[2]s
spec:
  targetRef:
    apiVersion: apps.kruise.io/v1alpha1
    kind: CloneSet
    name: prio
  subsets:
  - name: subset-a
    requiredNodeSelectorTerm:
      matchExpressions:
      - {key: topology.kubernetes.io/zone, operator: In, values: [a]}
    maxReplicas: 2
    patch:
      spec:
        priorityClassName: %[1]s
  - name: subset-b
    requiredNodeSelectorTerm:
      matchExpressions:
      - {key: topology.kubernetes.io/zone, operator: In, values: [b]}
`, class, ns)
	if out, err := c.KubectlStdin(t, manifest, "apply", "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v: %s", err, out)
	}
	t.Cleanup(func() { _, _, _ = c.Kubectl(t, "delete", "--ignore-not-found", "priorityclass", class) })
	waitCounted(t, ns, "prio", time.Minute, func([]appsv1alpha1.WorkloadSpreadSubsetStatus) bool { return true })
	cloneSet := `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata:
  name: prio
spec:
  replicas: 3
  selector:
    matchLabels: {app: prio}
  template:
    metadata:
      labels: {app: prio}
    spec:
      containers:
      - {name: nginx, image: "nginx:alpine"}
`
	if out, err := c.KubectlStdin(t, cloneSet, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v: %s", err, out)
	}

	type placed struct{ Name, Subset string }
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		pods, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=prio"})
		if err != nil {
			return false, err
		}
		last := ""
		inA, inB := 0, 0
		for _, p := range pods.Items {
			var got placed
			raw, ok := p.Annotations[matchedAnnotation]
			if ok && json.Unmarshal([]byte(raw), &got) != nil {
				return false, fmt.Errorf("pod %s: %s is not JSON: %q", p.Name, matchedAnnotation, raw)
			}
			prio := int32(-1)
			if p.Spec.Priority != nil {
				prio = *p.Spec.Priority
			}
			last += fmt.Sprintf("  %s %s=%q priorityClassName=%q priority=%d\n", p.Name, matchedAnnotation, raw, p.Spec.PriorityClassName, prio)
			switch {
			case got.Name == "prio" && got.Subset == "subset-a" && p.Spec.PriorityClassName == class && prio == 1000:
				inA++
			case got.Name == "prio" && got.Subset == "subset-b" && p.Spec.PriorityClassName == "" && prio == 0:
				inB++
			}
		}
		if inA == 2 && inB == 1 && len(pods.Items) == 3 {
			return true, nil
		}
		return false, fmt.Errorf("want 2 pods in subset-a with class %s (priority 1000) and 1 in subset-b, pods:\n%s", class, last)
	})
}
