package pub

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	policyv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const newImage = "nginx:1.27"

// updating: the pod was switched to the new image and is not yet running it ready.
func updating(p *corev1.Pod) bool {
	if p.Spec.Containers[0].Image != newImage {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == "InPlaceUpdateReady" && c.Status != corev1.ConditionTrue {
			return true
		}
	}
	return len(p.Status.ContainerStatuses) == 0 || p.Status.ContainerStatuses[0].Image != newImage || !isReady(p)
}

// podunavailablebudget.yaml: the CloneSet asks for all 5 pods at once
// (maxUnavailable 100%), the budget allows one: the in-place rollout proceeds one pod
// at a time — never two pods updating together, each pod switched to the new image
// only after the previous one is available again — and finishes; the CloneSet
// reports the refusals as events.
func TestInPlaceRolloutOneAtATime(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	applyExample(t, ns)
	waitBudget(t, ns, 2*time.Minute, func(s policyv1alpha1.PodUnavailableBudgetStatus) bool {
		return s.CurrentAvailable == 5 && s.UnavailableAllowed == 1
	})
	uids := map[types.UID]bool{}
	for _, p := range livePods(t, ns) {
		uids[p.UID] = true
	}

	if _, err := kruise(t).AppsV1alpha1().CloneSets(ns).Patch(ctx, cloneSetName, types.JSONPatchType,
		[]byte(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"`+newImage+`"}]`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}

	switchedAt := map[string]time.Time{} // first time each pod was seen on the new image
	deadline := time.Now().Add(3 * time.Minute)
	for {
		pods := livePods(t, ns)
		var busy []string
		done := 0
		for i := range pods {
			p := &pods[i]
			if !uids[p.UID] {
				t.Fatalf("pod %s is new: the rollout must be in place", p.Name)
			}
			if p.Spec.Containers[0].Image == newImage {
				if _, ok := switchedAt[p.Name]; !ok {
					switchedAt[p.Name] = time.Now()
				}
			}
			if updating(p) {
				busy = append(busy, p.Name)
			} else if p.Spec.Containers[0].Image == newImage {
				done++
			}
		}
		if len(busy) > 1 {
			t.Fatalf("%d pods updating at once: %v", len(busy), busy)
		}
		if done == 5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("rollout stuck: %d of 5 pods updated (%v switched)", done, switchedAt)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// one at a time: no two pods switched within the same moment
	var times []time.Time
	for _, at := range switchedAt {
		times = append(times, at)
	}
	sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < time.Second {
			t.Errorf("pods %d and %d switched %v apart: the budget let two through together", i, i+1, gap)
		}
	}
	waitBudget(t, ns, time.Minute, func(s policyv1alpha1.PodUnavailableBudgetStatus) bool {
		return s.CurrentAvailable == 5 && s.UnavailableAllowed == 1 && len(s.UnavailablePods) == 0
	})
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		for _, msg := range eventMessages(t, ns, cloneSetName)["FailedUpdatePodInPlace"] {
			if strings.Contains(msg, "waits for its disruption budget") && strings.Contains(msg, budgetName) {
				return true, nil
			}
		}
		return false, nil
	})
}
