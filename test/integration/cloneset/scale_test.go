package cloneset

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// cloneset-scale-limited.yaml: with scaleStrategy.maxUnavailable 1 and minReadySeconds 60
// the next pod is created only after the previous one has been ready for 60s
// (event ScaleUpLimited).
func TestScaleUpLimited(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	applyExample(t, ns, "cloneset-scale-limited.yaml", nil)
	cs := waitStatus(t, ns, "cs-demo", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.Replicas == 1 && s.ReadyReplicas == 1
	})
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		return eventReasons(t, ns, "cs-demo")["ScaleUpLimited"] > 0, nil
	})
	// For the next 45 s (well inside minReadySeconds) there is still exactly one pod.
	framework.Consistently(t, 45*time.Second, func() (bool, string) {
		n := len(podsOf(t, ns, cs))
		return n == 1, fmt.Sprintf("%d pods before the first was available, want 1", n)
	})
	// Then the second pod comes, once the first has been ready for 60 s.
	waitStatus(t, ns, "cs-demo", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.Replicas == 2 && s.AvailableReplicas >= 1
	})
}

// cloneset-pods-to-delete.yaml: scale to 4 removing exactly the named pod; the controller
// drops deleted names from podsToDelete. A pod labelled apps.kruise.io/specified-delete
// is deleted the same way and, without a replicas change, replaced.
func TestPodsToDelete(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	// Start from the same CloneSet at 5 pods, before the user names a pod: the example
	// without podsToDelete (and without the scale-up limit, so the 5 pods come at once).
	applyExample(t, ns, "cloneset-pods-to-delete.yaml", func(m string) string {
		m = strings.Replace(m, "replicas: 4", "replicas: 5", 1)
		m = strings.Replace(m, "    podsToDelete:\n    - POD_NAME\n", "", 1)
		return strings.Replace(m, "    maxUnavailable: 1\n", "", 1)
	})
	cs := waitStatus(t, ns, "cs-demo", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.Replicas == 5 && s.ReadyReplicas == 5
	})
	pods := podsOf(t, ns, cs)
	victim := pods[2].Name
	applyExample(t, ns, "cloneset-pods-to-delete.yaml", func(m string) string {
		return strings.ReplaceAll(m, "POD_NAME", victim)
	})
	cs = waitStatus(t, ns, "cs-demo", time.Minute, func(s v1alpha1.CloneSetStatus, cs *v1alpha1.CloneSet) bool {
		return s.Replicas == 4 && len(cs.Spec.ScaleStrategy.PodsToDelete) == 0
	})
	var names []string
	for _, p := range podsOf(t, ns, cs) {
		names = append(names, p.Name)
	}
	if slices.Contains(names, victim) {
		t.Fatalf("pod %s named in podsToDelete still exists: %v", victim, names)
	}
	for _, p := range pods {
		if p.Name != victim && !slices.Contains(names, p.Name) {
			t.Fatalf("pod %s was deleted although only %s was named", p.Name, victim)
		}
	}

	// The label form: replicas unchanged, so the pod is replaced.
	labelled := names[0]
	if _, err := c.Client.CoreV1().Pods(ns).Patch(ctx, labelled, types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"apps.kruise.io/specified-delete":"true"}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	// The replacement waits for scaleStrategy.maxUnavailable: minReadySeconds is 60.
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		current := podsOf(t, ns, cs)
		var now []string
		for _, p := range current {
			now = append(now, p.Name)
		}
		return len(current) == 4 && !slices.Contains(now, labelled), nil
	})
}
