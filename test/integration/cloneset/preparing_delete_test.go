package cloneset

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// hookedCloneSet has 2 pods a preDelete hook (label example.com/drain) holds.
func hookedCloneSet(name string, exclude bool) *v1alpha1.CloneSet {
	labels := map[string]string{"app": name}
	cs := &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To[int32](2),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": name, "example.com/drain": "true"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx"}}},
			},
			Lifecycle: &pub.Lifecycle{PreDelete: &pub.LifecycleHook{LabelsHandler: map[string]string{"example.com/drain": "true"}}},
		},
	}
	if exclude {
		cs.Labels = map[string]string{v1alpha1.ScalingExcludePreparingDeleteKey: "true"}
	}
	return cs
}

// scaleStrategy.excludePreparingDelete (here as v1alpha1's label): a pod a preDelete
// hook holds in PreparingDelete during a recreate update does not count, so its
// replacement at the new revision is created while the hook still holds it.
func TestExcludePreparingDeleteReplacesHeldPod(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	client := kruise(t).AppsV1alpha1().CloneSets(ns)
	if _, err := client.Create(ctx, hookedCloneSet("drain", true), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cs := waitStatus(t, ns, "drain", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.ReadyReplicas == 2
	})
	if _, err := client.Patch(ctx, "drain", types.JSONPatchType,
		[]byte(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:new"}]`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	held := heldPod(t, ns, cs, pub.LifecycleStatePreparingDelete).Name
	// While the hook holds it, its replacement runs at the new revision beside it.
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		cur, err := client.Get(ctx, "drain", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		updated := 0
		heldStill := false
		for _, p := range podsOf(t, ns, cs) {
			if p.Name == held {
				heldStill = p.Labels[pub.LifecycleStateKey] == string(pub.LifecycleStatePreparingDelete)
				continue
			}
			if p.Labels["controller-revision-hash"] == cur.Status.UpdateRevision && isPodReady(&p) {
				updated++
			}
		}
		if !heldStill {
			t.Fatalf("pod %s left PreparingDelete although its hook still holds it", held)
		}
		return updated >= 1, nil
	})
}

// By default a pod specified for deletion and held by its preDelete hook still
// counts: no replacement while the hook holds it (OpenKruise's default); once the
// hook lets go, the pod goes and is replaced.
func TestPreparingDeleteCountsByDefault(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	if _, err := kruise(t).AppsV1alpha1().CloneSets(ns).Create(ctx, hookedCloneSet("hold", false), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cs := waitStatus(t, ns, "hold", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.ReadyReplicas == 2
	})
	victim := podsOf(t, ns, cs)[0].Name
	if _, err := c.Client.CoreV1().Pods(ns).Patch(ctx, victim, types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"apps.kruise.io/specified-delete":"true"}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if held := heldPod(t, ns, cs, pub.LifecycleStatePreparingDelete).Name; held != victim {
		t.Fatalf("pod %s held for deletion, want %s", held, victim)
	}
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		n := len(podsOf(t, ns, cs))
		return n == 2, fmt.Sprintf("%d pods while the hook holds %s, want 2 (no replacement yet)", n, victim)
	})
	if _, err := c.Client.CoreV1().Pods(ns).Patch(ctx, victim, types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"example.com/drain":null}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		pods := podsOf(t, ns, cs)
		for _, p := range pods {
			if p.Name == victim {
				return false, nil
			}
		}
		return len(pods) == 2, nil
	})
}

// lifecycle.preNormal: a new pod stays PreparingNormal until the hook's label is on
// it, also while it cannot be scheduled; then Normal.
func TestPreNormalHoldsNewPods(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	labels := map[string]string{"app": "warm"}
	cs := &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "warm"},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To[int32](2),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx"}}},
			},
			Lifecycle: &pub.Lifecycle{PreNormal: &pub.LifecycleHook{LabelsHandler: map[string]string{"example.com/in-lb": "true"}}},
		},
	}
	if _, err := kruise(t).AppsV1alpha1().CloneSets(ns).Create(ctx, cs, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	got := waitStatus(t, ns, "warm", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.Replicas == 2 && s.ReadyReplicas == 2
	})
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		for _, p := range podsOf(t, ns, got) {
			if s := p.Labels[pub.LifecycleStateKey]; s != string(pub.LifecycleStatePreparingNormal) {
				return false, fmt.Sprintf("pod %s is %q before the preNormal hook's label is on it", p.Name, s)
			}
		}
		return true, ""
	})
	// A pod that cannot be scheduled stays PreparingNormal too.
	if _, err := kruise(t).AppsV1alpha1().CloneSets(ns).Patch(ctx, "warm", types.MergePatchType,
		[]byte(`{"spec":{"replicas":3,"template":{"spec":{"nodeSelector":{"example.com/no-such-node":"true"}}},"updateStrategy":{"paused":true}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) { return len(podsOf(t, ns, got)) == 3, nil })
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		unscheduled := 0
		for _, p := range podsOf(t, ns, got) {
			if p.Spec.NodeName == "" {
				unscheduled++
			}
			if s := p.Labels[pub.LifecycleStateKey]; s != string(pub.LifecycleStatePreparingNormal) {
				return false, fmt.Sprintf("pod %s (node %q) is %q, want PreparingNormal", p.Name, p.Spec.NodeName, s)
			}
		}
		return unscheduled == 1, fmt.Sprintf("%d unscheduled pods, want 1", unscheduled)
	})
	// The owner of the hook adds its label: the scheduled pods become Normal.
	for _, p := range podsOf(t, ns, got) {
		if _, err := c.Client.CoreV1().Pods(ns).Patch(ctx, p.Name, types.MergePatchType,
			[]byte(`{"metadata":{"labels":{"example.com/in-lb":"true"}}}`), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		for _, p := range podsOf(t, ns, got) {
			if p.Labels[pub.LifecycleStateKey] != string(pub.LifecycleStateNormal) {
				return false, nil
			}
		}
		return true, nil
	})
}
