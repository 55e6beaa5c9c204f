package verticalscaling

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const statefulSet = `apiVersion: apps.kruise.io/v1beta1
kind: StatefulSet
metadata:
  name: web
spec:
  serviceName: web
  podManagementPolicy: Parallel
  replicas: 3
  updateStrategy:
    type: RollingUpdate
    rollingUpdate:
      podUpdatePolicy: InPlaceIfPossible
      maxUnavailable: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      readinessGates:
      - conditionType: InPlaceUpdateReady
      containers:
      - name: nginx
        image: nginx:alpine
        resources:
          requests: {cpu: 100m, memory: 64Mi}
          limits: {cpu: 200m, memory: 128Mi}
`

const daemonSet = `apiVersion: apps.kruise.io/v1alpha1
kind: DaemonSet
metadata:
  name: agent
spec:
  updateStrategy:
    type: RollingUpdate
    rollingUpdate:
      rollingUpdateType: InPlaceIfPossible
      maxUnavailable: 3
  selector:
    matchLabels:
      app: agent
  template:
    metadata:
      labels:
        app: agent
    spec:
      containers:
      - name: nginx
        image: nginx:alpine
        resources:
          requests: {cpu: 100m, memory: 64Mi}
          limits: {cpu: 200m, memory: 128Mi}
`

// The same mechanism serves Advanced StatefulSet and Advanced DaemonSet: a resource
// change of the template resizes their pods in place (names, UIDs, restart counts
// kept), and each pod moves to the new revision once its status shows the resources.
func TestStatefulSetAndDaemonSetResizeInPlace(t *testing.T) {
	for _, tc := range []struct {
		name, manifest, resource, workload, selector string
		pods                                         int
	}{
		{"AdvancedStatefulSet", statefulSet, "statefulsets.apps.kruise.io", "web", "app=web", 3},
		{"AdvancedDaemonSet", daemonSet, "daemonsets.apps.kruise.io", "agent", "app=agent", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := framework.Get(t)
			ns := c.CreateNamespace(t)
			ctx := context.Background()
			if _, err := c.KubectlStdin(t, tc.manifest, "apply", "-n", ns, "-f", "-"); err != nil {
				t.Fatal(err)
			}
			pods := func() ([]corev1.Pod, error) {
				list, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: tc.selector})
				if err != nil {
					return nil, err
				}
				return list.Items, nil
			}
			before := map[string]corev1.Pod{}
			framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
				list, err := pods()
				if err != nil || len(list) != tc.pods {
					return false, err
				}
				for i := range list {
					if unavailable(&list[i]) {
						return false, nil
					}
					before[list[i].Name] = list[i]
				}
				return true, nil
			})

			patch := `[{"op":"replace","path":"/spec/template/spec/containers/0/resources","value":{` +
				`"requests":{"cpu":"200m","memory":"96Mi"},"limits":{"cpu":"400m","memory":"256Mi"}}}]`
			if _, stderr, err := c.Kubectl(t, "patch", "-n", ns, tc.resource, tc.workload, "--type=json", "-p", patch); err != nil {
				t.Fatalf("%v: %s", err, stderr)
			}
			framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
				list, err := pods()
				if err != nil {
					return false, err
				}
				if len(list) != tc.pods {
					return false, nil
				}
				for i := range list {
					p := &list[i]
					was, ok := before[p.Name]
					if !ok || was.UID != p.UID {
						return false, fmt.Errorf("pod %s (uid %s) is new: a resize keeps pod names and UIDs", p.Name, p.UID)
					}
					if !runsResources(p, newResources) || unavailable(p) ||
						p.Labels["controller-revision-hash"] == was.Labels["controller-revision-hash"] {
						return false, nil
					}
					if got, want := p.Status.ContainerStatuses[0].RestartCount, was.Status.ContainerStatuses[0].RestartCount; got != want {
						return false, fmt.Errorf("pod %s restartCount %d -> %d: a resize restarts nothing", p.Name, want, got)
					}
				}
				return true, nil
			})
		})
	}
}
