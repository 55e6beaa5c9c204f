package workloadspread

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const existingSpread = `apiVersion: apps.kruise.io/v1alpha1
kind: WorkloadSpread
metadata:
  name: %[1]s
  annotations:
    workloadspread.kruise.io/ignore-patch-existing-pods-metadata: "%[2]s"
spec:
  targetRef:
    apiVersion: apps.kruise.io/v1alpha1
    kind: CloneSet
    name: %[1]s
  subsets:
%[3]s`

const existingCloneSet = `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata:
  name: %[1]s
spec:
  replicas: 4
  selector:
    matchLabels:
      app: %[1]s
  template:
    metadata:
      labels:
        app: %[1]s
    spec:
      containers:
      - name: nginx
        image: nginx:alpine
`

// A spread applied to a CloneSet whose pods already run: each pod is marked with the
// subset its node's zone matches and gets that subset's patch labels, as OpenKruise
// does; with workloadspread.kruise.io/ignore-patch-existing-pods-metadata: "true" on the
// spread, the pods are marked but keep their labels.
func TestSubsetPatchReachesExistingPods(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	var subsets strings.Builder
	for _, z := range []string{"a", "b", "c"} {
		fmt.Fprintf(&subsets, `  - name: subset-%[1]s
    requiredNodeSelectorTerm:
      matchExpressions:
      - {key: topology.kubernetes.io/zone, operator: In, values: [%[1]s]}
    patch:
      metadata:
        labels:
          spread-zone: %[1]s
`, z)
	}
	for _, name := range []string{"patched", "optout"} {
		if out, err := c.KubectlStdin(t, fmt.Sprintf(existingCloneSet, name), "apply", "-n", ns, "-f", "-"); err != nil {
			t.Fatalf("kubectl apply: %v: %s", err, out)
		}
	}
	// The pods run on their nodes before any spread exists.
	for _, name := range []string{"patched", "optout"} {
		framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
			pods := podsOf(t, ns, name)
			scheduled := 0
			for _, p := range pods {
				if p.zone != "" {
					scheduled++
				}
			}
			return scheduled == 4, nil
		})
	}
	for name, optOut := range map[string]string{"patched": "false", "optout": "true"} {
		if out, err := c.KubectlStdin(t, fmt.Sprintf(existingSpread, name, optOut, subsets.String()), "apply", "-n", ns, "-f", "-"); err != nil {
			t.Fatalf("kubectl apply: %v: %s", err, out)
		}
	}
	for name, wantLabel := range map[string]bool{"patched": true, "optout": false} {
		var last string
		defer func() {
			if t.Failed() {
				t.Logf("pods of %s when the wait ended:\n%s", name, last)
			}
		}()
		framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
			list, err := c.Client.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: "app=" + name})
			if err != nil {
				return false, err
			}
			last = ""
			for _, p := range podsOf(t, ns, name) {
				last += fmt.Sprintf("  %s subset=%q zone=%q\n", p.pod, p.subset, p.zone)
				if p.subset == "" || p.subset != "subset-"+p.zone {
					return false, nil
				}
			}
			for _, p := range list.Items {
				zone, labelled := p.Labels["spread-zone"]
				if labelled != wantLabel {
					if labelled {
						return false, fmt.Errorf("pod %s of %s got the patch label although the spread opts out", p.Name, name)
					}
					return false, nil
				}
				if labelled && "subset-"+zone != podSubset(p.Annotations) {
					return false, fmt.Errorf("pod %s: label spread-zone=%s but %s", p.Name, zone, podSubset(p.Annotations))
				}
			}
			return len(list.Items) == 4, nil
		})
	}
}

func podSubset(annotations map[string]string) string {
	v := annotations["apps.kruise.io/matched-workloadspread"]
	if i := strings.Index(v, `"subset":"`); i >= 0 {
		return strings.TrimSuffix(v[i+len(`"subset":"`):], `"}`)
	}
	return ""
}
