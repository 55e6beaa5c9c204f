package workloadspread

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const zoneLabel = "topology.kubernetes.io/zone"

func kruise(t *testing.T) kruiseclient.Interface {
	return kruiseclient.NewForConfigOrDie(framework.Get(t).Config)
}

// placement is a live pod's subset (from the annotation), the zone of its node and
// whether its node affinity keeps it there.
type placement struct {
	pod, subset, zone string
	cost              string
}

// podsOf lists the live pods labelled app=<app>, with their subset and node zone.
func podsOf(t *testing.T, ns, app string) []placement {
	t.Helper()
	c := framework.Get(t)
	ctx := context.Background()
	list, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=" + app})
	if err != nil {
		t.Fatal(err)
	}
	var out []placement
	for _, p := range list.Items {
		if p.DeletionTimestamp != nil {
			continue
		}
		pl := placement{pod: p.Name, cost: p.Annotations[corev1.PodDeletionCost]}
		var a struct{ Name, Subset string }
		if v, ok := p.Annotations[appsv1alpha1.WorkloadSpreadAnnotation]; ok && json.Unmarshal([]byte(v), &a) == nil {
			pl.subset = a.Subset
		}
		if p.Spec.NodeName != "" {
			node, err := c.Client.CoreV1().Nodes().Get(ctx, p.Spec.NodeName, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			pl.zone = node.Labels[zoneLabel]
		}
		out = append(out, pl)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pod < out[j].pod })
	return out
}

// byZone counts scheduled pods per zone and says whether every pod is scheduled, in
// the zone of its subset (subset-<zone>), with a deletion cost.
func byZone(pods []placement) (map[string]int, bool) {
	count := map[string]int{}
	ok := true
	for _, p := range pods {
		count[p.zone]++
		if p.zone == "" || p.subset != "subset-"+p.zone || p.cost == "" {
			ok = false
		}
	}
	return count, ok
}

// waitZones waits until the app's pods are exactly want per zone, each in its
// subset's zone with a deletion cost set by the controller.
func waitZones(t *testing.T, ns, app string, timeout time.Duration, want map[string]int) {
	t.Helper()
	var last []placement
	deadline := time.Now().Add(timeout)
	for {
		last = podsOf(t, ns, app)
		got, placed := byZone(last)
		if placed && fmt.Sprint(got) == fmt.Sprint(want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("pods of %s per zone %v (all placed with a cost: %v), want %v:\n%s", app, got, placed, want, describe(last))
		}
		time.Sleep(500 * time.Millisecond)
	}
}

func describe(pods []placement) string {
	var b strings.Builder
	for _, p := range pods {
		fmt.Fprintf(&b, "  %s subset=%q zone=%q cost=%q\n", p.pod, p.subset, p.zone, p.cost)
	}
	return b.String()
}

// scaleCloneSet sets the CloneSet's replicas, as `kubectl scale` does.
func scaleCloneSet(t *testing.T, ns, name string, replicas int) {
	t.Helper()
	if _, stderr, err := framework.Get(t).Kubectl(t, "scale", "clone", "-n", ns, name, fmt.Sprintf("--replicas=%d", replicas)); err != nil {
		t.Fatalf("kubectl scale clone %s: %v: %s", name, err, stderr)
	}
}

// waitCounted waits until the spread's controller has counted its generation and the
// subset statuses satisfy cond.
func waitCounted(t *testing.T, ns, name string, timeout time.Duration, cond func([]appsv1alpha1.WorkloadSpreadSubsetStatus) bool) {
	t.Helper()
	framework.WaitFor(t, timeout, func() (bool, error) {
		ws, err := kruise(t).AppsV1alpha1().WorkloadSpreads(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return ws.Status.ObservedGeneration == ws.Generation && len(ws.Status.SubsetStatuses) == len(ws.Spec.Subsets) &&
			cond(ws.Status.SubsetStatuses), nil
	})
}
