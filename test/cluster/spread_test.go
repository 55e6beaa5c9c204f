package cluster

import (
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

const zoneLabel = "topology.kubernetes.io/zone"

// inZoneA labels the node topology.kubernetes.io/zone=a, the examples' first zone, until
// the test ends. The node is the only one: zones b and c have none.
func (s *suite) inZoneA(t *testing.T) {
	t.Helper()
	s.kubectl(t, "label", "node", harness.NodeName, zoneLabel+"=a", "--overwrite")
	t.Cleanup(func() { s.kubectl(t, "label", "node", harness.NodeName, zoneLabel+"-") })
}

// podsBy groups the pods matching selector by a label's value, counting the running and
// ready ones and the Pending unschedulable ones.
func podsBy(ctx context.Context, s *suite, selector, label string) (running, pending map[string]int, err error) {
	pods, err := podsOf(ctx, s.c.Client, "default", selector)
	if err != nil {
		return nil, nil, err
	}
	running, pending = map[string]int{}, map[string]int{}
	for _, p := range pods {
		key := p.Labels[label]
		if label == "" || key == "" {
			key = p.Annotations["apps.kruise.io/matched-workloadspread"]
		}
		switch {
		case harness.RunningReady(&p) == nil:
			running[key]++
		case p.Status.Phase == corev1.PodPending && p.Spec.NodeName == "":
			pending[key]++
		}
	}
	return running, pending, nil
}

// testUnitedDeployment: uniteddeployment.yaml with the node in zone a — 10 replicas
// divided 2 / 5 / 3 (status.subsetReplicas), one CloneSet per subset; subset-a's 2 pods
// run on the node, the other subsets' pods stay Pending (no node in zones b and c).
func (s *suite) testUnitedDeployment(t *testing.T) {
	ctx := context.Background()
	s.inZoneA(t)
	s.push(t, "nginx:alpine")
	s.apply(t, example(t, "uniteddeployment.yaml"))
	defer func() {
		must(t, ignoreNotFound(s.kruise.AppsV1alpha1().UnitedDeployments("default").Delete(ctx, "sample-ud", metav1.DeleteOptions{})))
		must(t, waitNoPods(ctx, s.c.Client, "default", "app=sample-ud"))
	}()
	want := map[string]int32{"subset-a": 2, "subset-b": 5, "subset-c": 3}
	must(t, harness.WaitFor(ctx, 2*time.Minute, 500*time.Millisecond, "subsetReplicas 2/5/3, subset-a's pods running", func(ctx context.Context) error {
		ud, err := s.kruise.AppsV1alpha1().UnitedDeployments("default").Get(ctx, "sample-ud", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if !maps.Equal(ud.Status.SubsetReplicas, want) {
			return fmt.Errorf("subsetReplicas %v", ud.Status.SubsetReplicas)
		}
		running, pending, err := podsBy(ctx, s, "app=sample-ud", "apps.kruise.io/subset-name")
		if err != nil {
			return err
		}
		if running["subset-a"] != 2 || pending["subset-b"] != 5 || pending["subset-c"] != 3 {
			return fmt.Errorf("running %v pending %v", running, pending)
		}
		return nil
	}))
	list, err := s.kruise.AppsV1alpha1().CloneSets("default").List(ctx, metav1.ListOptions{LabelSelector: "app=sample-ud"})
	must(t, err)
	owned := 0
	for _, cs := range list.Items {
		if ref := metav1.GetControllerOf(&cs); ref != nil && ref.Kind == "UnitedDeployment" && ref.Name == "sample-ud" {
			owned++
		}
	}
	if owned != 3 {
		t.Errorf("%d CloneSets owned by sample-ud, want 3", owned)
	}
	t.Logf("subsetReplicas %v; 3 CloneSets; subset-a's 2 pods run in zone a, subsets b (5) and c (3) Pending with no node in their zone", want)
}

// testWorkloadSpread: workloadspread.yaml with the node in zone a — the CloneSet scaled to 6
// puts 3 pods in subset-a (zone a: they run) and the rest in subset-b (zone b: Pending),
// each pod annotated with its subset.
func (s *suite) testWorkloadSpread(t *testing.T) {
	ctx := context.Background()
	s.inZoneA(t)
	s.push(t, "nginx:alpine")
	s.apply(t, example(t, "workloadspread.yaml"))
	defer func() {
		must(t, ignoreNotFound(s.kruise.AppsV1alpha1().WorkloadSpreads("default").Delete(ctx, "ws-demo", metav1.DeleteOptions{})))
		s.deleteCloneSet(t, "ws-demo-app", "app=ws-demo-app")
	}()
	s.waitCloneSet(t, "ws-demo-app", 2*time.Minute, "2 ready", readyCount(2))
	s.kubectl(t, "scale", "clone", "ws-demo-app", "--replicas=6")
	var running, pending map[string]int
	must(t, harness.WaitFor(ctx, 2*time.Minute, 500*time.Millisecond, "3 pods in subset-a running, 3 in subset-b pending", func(ctx context.Context) error {
		var err error
		running, pending, err = podsBy(ctx, s, "app=ws-demo-app", "")
		if err != nil {
			return err
		}
		a, b := 0, 0
		for k, n := range running {
			if contains(k, `"subset-a"`) {
				a += n
			}
		}
		for k, n := range pending {
			if contains(k, `"subset-b"`) {
				b += n
			}
		}
		if a != 3 || b != 3 {
			return fmt.Errorf("running %v pending %v", running, pending)
		}
		return nil
	}))
	t.Logf("scaled to 6: running by subset annotation %v, pending %v", running, pending)
	t.Logf("kubectl get ws:\n%s", s.kubectl(t, "get", "ws", "ws-demo"))
}
