package uniteddeployment

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// examples/uniteddeployment.yaml, applied unchanged, behaves as its comment
// says: 10 -> 2/5/3 pods in zones a/b/c (status.subsetReplicas too), each pod in its
// subset's zone, one CloneSet per subset owned by the UnitedDeployment; `kubectl scale
// ud sample-ud --replicas=20` re-divides to 2/10/8; manualUpdate.partitions hold back
// old pods per subset during a template change; scaled to 3, below the fixed shares,
// the earlier subsets are served first (2/1/0).
func TestDocumentedExample(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	file := filepath.Join(c.Root, "examples", "uniteddeployment.yaml")
	if out, stderr, err := c.Kubectl(t, "apply", "-f", file); err != nil {
		t.Fatalf("kubectl apply -f %s: %v\n%s%s", file, err, out, stderr)
	}
	t.Cleanup(func() { _, _, _ = c.Kubectl(t, "delete", "--ignore-not-found", "--wait=false", "-f", file) })
	const ns, name, selector = "default", "sample-ud", "app=sample-ud"

	pods := waitPods(t, c, ns, selector, map[string]int{"subset-a": 2, "subset-b": 5, "subset-c": 3}, 2*time.Minute)
	checkZones(t, c, pods)
	ud := waitUD(t, c, ns, name, time.Minute, func(ud *v1beta1.UnitedDeployment) bool {
		s := ud.Status
		return s.ReadyReplicas == 10 && s.Replicas == 10 && s.SubsetReplicas["subset-a"] == 2 && s.SubsetReplicas["subset-b"] == 5 && s.SubsetReplicas["subset-c"] == 3
	})
	if ud.Status.LabelSelector != selector || ud.Status.UpdateStatus == nil || ud.Status.UpdateStatus.UpdatedRevision == "" || ud.Status.CurrentRevision == "" {
		t.Errorf("status: labelSelector %q updateStatus %+v currentRevision %q", ud.Status.LabelSelector, ud.Status.UpdateStatus, ud.Status.CurrentRevision)
	}

	// One CloneSet per subset, controlled by the UnitedDeployment.
	sets, err := kruise(c).AppsV1beta1().CloneSets(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, cs := range sets.Items {
		ref := metav1.GetControllerOf(&cs)
		if ref == nil || ref.UID != ud.UID || ref.Kind != "UnitedDeployment" {
			t.Errorf("CloneSet %s is not controlled by the UnitedDeployment: %+v", cs.Name, ref)
		}
		seen[cs.Labels[subsetLabel]] = true
	}
	if len(sets.Items) != 3 || len(seen) != 3 {
		t.Errorf("%d CloneSets for subsets %v, want one for each of 3 subsets", len(sets.Items), seen)
	}

	out, stderr, err := c.Kubectl(t, "get", "ud", "-n", ns, name)
	if err != nil {
		t.Fatalf("kubectl get ud: %v\n%s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || strings.Join(strings.Fields(lines[0]), " ") != "NAME DESIRED CURRENT UPDATED READY AGE" {
		t.Fatalf("kubectl get ud printed:\n%s", out)
	}
	if row := strings.Fields(lines[1]); len(row) != 6 || row[1] != "10" || row[2] != "10" || row[3] != "10" || row[4] != "10" {
		t.Errorf("kubectl get ud row %v, want 10 10 10 10", row)
	}

	// The scale subresource, as an HPA reads it.
	raw, stderr, err := c.Kubectl(t, "get", "--raw", "/apis/apps.kruise.io/v1alpha1/namespaces/default/uniteddeployments/sample-ud/scale")
	if err != nil {
		t.Fatalf("get scale: %v\n%s", err, stderr)
	}
	var scale struct {
		Spec   struct{ Replicas int32 }
		Status struct {
			Replicas int32
			Selector string
		}
	}
	if err := json.Unmarshal([]byte(raw), &scale); err != nil || scale.Spec.Replicas != 10 || scale.Status.Replicas != 10 || scale.Status.Selector != selector {
		t.Errorf("scale %s (%v)", raw, err)
	}

	if out, stderr, err := c.Kubectl(t, "scale", "ud", name, "-n", ns, "--replicas=20"); err != nil {
		t.Fatalf("kubectl scale ud: %v\n%s%s", err, out, stderr)
	}
	pods = waitPods(t, c, ns, selector, map[string]int{"subset-a": 2, "subset-b": 10, "subset-c": 8}, 2*time.Minute)
	checkZones(t, c, pods)
	waitUD(t, c, ns, name, time.Minute, func(ud *v1beta1.UnitedDeployment) bool {
		s := ud.Status
		return s.ReadyReplicas == 20 && s.SubsetReplicas["subset-b"] == 10 && s.SubsetReplicas["subset-c"] == 8
	})

	// Partitions: subset-a none, subset-b holds 4 old pods, subset-c all 8.
	if out, stderr, err := c.Kubectl(t, "patch", "ud", name, "-n", ns, "--type=merge", "-p",
		`{"spec":{"updateStrategy":{"manualUpdate":{"partitions":{"subset-a":0,"subset-b":4,"subset-c":8}}}}}`); err != nil {
		t.Fatalf("kubectl patch partitions: %v\n%s%s", err, out, stderr)
	}
	if out, stderr, err := c.Kubectl(t, "patch", "ud", name, "-n", ns, "--type=json", "-p",
		`[{"op":"replace","path":"/spec/template/cloneSetTemplate/spec/template/spec/containers/0/image","value":"nginx:1.27"}]`); err != nil {
		t.Fatalf("kubectl patch image: %v\n%s%s", err, out, stderr)
	}
	framework.WaitFor(t, 3*time.Minute, func() (bool, error) {
		newPods, oldPods := map[string]int{}, map[string]int{}
		live := livePods(t, c, ns, selector)
		for _, p := range live {
			if p.Spec.Containers[0].Image == "nginx:1.27" {
				newPods[p.Labels[subsetLabel]]++
			} else {
				oldPods[p.Labels[subsetLabel]]++
			}
		}
		got := fmt.Sprintf("new %s; old %s", describeCounts(newPods), describeCounts(oldPods))
		want := "new subset-a=2 subset-b=6; old subset-b=4 subset-c=8"
		if got != want || len(podsPerSubset(live)) != 3 || len(live) != 20 {
			return false, fmt.Errorf("pods %s (%d live), want %s", got, len(live), want)
		}
		return true, nil
	})
	ud = waitUD(t, c, ns, name, time.Minute, func(ud *v1beta1.UnitedDeployment) bool {
		return ud.Status.UpdatedReplicas == 8 && ud.Status.ReadyReplicas == 20
	})
	if p := ud.Status.UpdateStatus.CurrentPartitions; p["subset-b"] != 4 || p["subset-c"] != 8 {
		t.Errorf("currentPartitions %v", p)
	}

	// Below the subsets' fixed shares (2 and 50%) a scale is still accepted, as an HPA
	// needs: the earlier subsets are served first.
	if out, stderr, err := c.Kubectl(t, "scale", "ud", name, "-n", ns, "--replicas=3"); err != nil {
		t.Fatalf("kubectl scale ud --replicas=3: %v\n%s%s", err, out, stderr)
	}
	waitPods(t, c, ns, selector, map[string]int{"subset-a": 2, "subset-b": 1}, 2*time.Minute)
}

// checkZones fails for a pod not in the zone its subset names (subset-<zone>).
func checkZones(t *testing.T, c *framework.Cluster, pods []corev1.Pod) {
	t.Helper()
	zones := nodeZones(t, c)
	for _, p := range pods {
		want := strings.TrimPrefix(p.Labels[subsetLabel], "subset-")
		if got := zones[p.Spec.NodeName]; got != want {
			t.Errorf("pod %s of %s runs on %s in zone %q, want zone %q", p.Name, p.Labels[subsetLabel], p.Spec.NodeName, got, want)
		}
	}
}
