package uniteddeployment

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// udManifest is a UnitedDeployment of 4 replicas over zone a (1) and zone b (the rest,
// with a patch labelling its pods), whose subsets are workloads of the given template.
func udManifest(name, template string) string {
	return fmt.Sprintf(`apiVersion: apps.kruise.io/v1alpha1
kind: UnitedDeployment
metadata:
  name: %[1]s
spec:
  replicas: 4
  selector:
    matchLabels:
      app: %[1]s
  template:
%[2]s
  topology:
    subsets:
    - name: subset-a
      nodeSelectorTerm:
        matchExpressions:
        - {key: topology.kubernetes.io/zone, operator: In, values: ["a"]}
      replicas: 1
    - name: subset-b
      nodeSelectorTerm:
        matchExpressions:
        - {key: topology.kubernetes.io/zone, operator: In, values: ["b"]}
      tolerations:
      - {key: spot, operator: Exists, effect: NoSchedule}
      patch:
        metadata:
          labels:
            pool: spot
`, name, template)
}

// workloadTemplate is a <kind>Template of the subsets' workload for app name.
func workloadTemplate(field, name, extraSpec string) string {
	return fmt.Sprintf(`    %[1]s:
      metadata:
        labels:
          app: %[2]s
      spec:
%[3]s        selector:
          matchLabels:
            app: %[2]s
        template:
          metadata:
            labels:
              app: %[2]s
          spec:
            containers:
            - name: nginx
              image: nginx:alpine`, field, name, extraSpec)
}

// A UnitedDeployment runs its subsets as each of the four kinds: 1/3 pods in zones
// a/b, the subset's toleration and patch on the pods of subset-b, and the status
// counting them.
func TestSubsetKinds(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	for _, tc := range []struct {
		field, extra string
		count        func(ns string) (int, error)
	}{
		{"cloneSetTemplate", "", func(ns string) (int, error) {
			l, err := kruise(c).AppsV1beta1().CloneSets(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				return 0, err
			}
			return len(l.Items), nil
		}},
		{"advancedStatefulSetTemplate", "        podManagementPolicy: Parallel\n", func(ns string) (int, error) {
			l, err := kruise(c).AppsV1beta1().StatefulSets(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				return 0, err
			}
			return len(l.Items), nil
		}},
		{"statefulSetTemplate", "        podManagementPolicy: Parallel\n", func(ns string) (int, error) {
			l, err := c.Client.AppsV1().StatefulSets(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				return 0, err
			}
			return len(l.Items), nil
		}},
		{"deploymentTemplate", "", func(ns string) (int, error) {
			l, err := c.Client.AppsV1().Deployments(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				return 0, err
			}
			return len(l.Items), nil
		}},
	} {
		t.Run(tc.field, func(t *testing.T) {
			ns := c.CreateNamespace(t)
			name := strings.ToLower(strings.TrimSuffix(tc.field, "Template"))
			apply(t, c, ns, udManifest(name, workloadTemplate(tc.field, name, tc.extra)))
			pods := waitPods(t, c, ns, "app="+name, map[string]int{"subset-a": 1, "subset-b": 3}, 2*time.Minute)
			checkZones(t, c, pods)
			for _, p := range pods {
				spot := p.Labels["pool"] == "spot"
				tolerates := false
				for _, tol := range p.Spec.Tolerations {
					tolerates = tolerates || tol.Key == "spot"
				}
				if b := p.Labels[subsetLabel] == "subset-b"; spot != b || tolerates != b {
					t.Errorf("pod %s of %s: pool label %v, spot toleration %v", p.Name, p.Labels[subsetLabel], spot, tolerates)
				}
			}
			if n, err := tc.count(ns); err != nil || n != 2 {
				t.Errorf("%d workloads (%v), want one per subset", n, err)
			}
			waitUD(t, c, ns, name, time.Minute, func(ud *v1beta1.UnitedDeployment) bool {
				return ud.Status.Replicas == 4 && ud.Status.ReadyReplicas == 4 && ud.Status.UpdatedReplicas == 4
			})
			// Each workload was created once: never a duplicate made on a stale cache
			// and deleted again.
			framework.WaitFor(t, 30*time.Second, func() (bool, error) {
				events, err := c.Client.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.name=" + name})
				if err != nil {
					return false, err
				}
				reasons := map[string]int{}
				for _, e := range events.Items {
					reasons[e.Reason] += int(max(e.Count, 1))
				}
				if reasons["SuccessfulCreate"] > 2 || reasons["SuccessfulDelete"] > 0 {
					t.Fatalf("events %v: a workload was created twice", reasons)
				}
				if reasons["SuccessfulCreate"] != 2 {
					return false, fmt.Errorf("events %v", reasons)
				}
				return true, nil
			})
		})
	}
}
