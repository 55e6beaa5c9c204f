package daemonset

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A surging rollout starts the new pod beside the old one before it deletes the old
// one: seen through a watch of every pod change, every node keeps a ready pod
// throughout, a node runs two pods before its old one goes, and at most maxSurge
// nodes run two at once.
func TestSurgingRollout(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	const label = "ads-surge"
	nodes := []string{"ads-s-0", "ads-s-1", "ads-s-2"}
	for _, n := range nodes {
		addNode(t, n, map[string]string{label: "yes"})
	}
	one, zero := intstr.FromInt32(1), intstr.FromInt32(0)
	ds := createDS(t, ns, newDaemonSet("agent", label, &v1beta1.RollingUpdateDaemonSet{
		Type: v1beta1.StandardRollingUpdateType, MaxSurge: &one, MaxUnavailable: &zero,
	}))
	waitOnePodPerNode(t, ns, ds, nodes)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	list, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.Client.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	live := map[types.UID]*corev1.Pod{} // pods not terminating
	for i := range list.Items {
		live[list.Items[i].UID] = &list.Items[i]
	}
	setImage(t, ns, ds.Name, "nginx:1.9.1")

	surged := map[string]bool{} // nodes seen running two pods
	for {
		byNode := map[string][]*corev1.Pod{}
		for _, p := range live {
			byNode[p.Spec.NodeName] = append(byNode[p.Spec.NodeName], p)
		}
		two, done := 0, 0
		for _, n := range nodes {
			readyAny := false
			for _, p := range byNode[n] {
				readyAny = readyAny || ready(p)
			}
			if !readyAny {
				t.Fatalf("node %s has no ready pod mid-rollout", n)
			}
			if len(byNode[n]) > 1 {
				two++
				surged[n] = true
			}
			if len(byNode[n]) == 1 && byNode[n][0].Spec.Containers[0].Image == "nginx:1.9.1" && ready(byNode[n][0]) {
				done++
			}
		}
		if two > 1 {
			t.Fatalf("%d nodes run two pods, maxSurge 1", two)
		}
		if done == len(nodes) {
			break
		}
		ev, ok := <-w.ResultChan()
		if !ok {
			t.Fatalf("watch ended before the rollout did (%d of %d nodes updated)", done, len(nodes))
		}
		p, isPod := ev.Object.(*corev1.Pod)
		switch {
		case !isPod:
			t.Fatalf("watch event %v: %v", ev.Type, ev.Object)
		case ev.Type == watch.Deleted || p.DeletionTimestamp != nil:
			delete(live, p.UID)
		case p.Spec.NodeName != "":
			live[p.UID] = p
		}
	}
	if len(surged) != len(nodes) {
		t.Errorf("nodes %v ran the new pod beside the old one, want all of %v", surged, nodes)
	}
	waitStatus(t, ns, ds.Name, time.Minute, func(s v1beta1.DaemonSetStatus) bool { return settled(s, 3) })
}
