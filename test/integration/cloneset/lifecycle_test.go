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

// lifecycle.preDelete: a pod carrying the hook's label is held in PreparingDelete on
// scale-down (and only that one pod), and deleted once its owner removes the label.
func TestPreDeleteHookHoldsScaleDown(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	labels := map[string]string{"app": "hook"}
	tmplLabels := map[string]string{"app": "hook", "example.com/deleting-blocker": "true"}
	cs := &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "hook"},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To[int32](2),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: tmplLabels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx"}}},
			},
			Lifecycle: &pub.Lifecycle{PreDelete: &pub.LifecycleHook{
				LabelsHandler: map[string]string{"example.com/deleting-blocker": "true"},
			}},
		},
	}
	client := kruise(t).AppsV1alpha1().CloneSets(ns)
	if _, err := client.Create(ctx, cs, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	got := waitStatus(t, ns, "hook", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.ReadyReplicas == 2
	})
	for _, p := range podsOf(t, ns, got) {
		if s := p.Labels[pub.LifecycleStateKey]; s != string(pub.LifecycleStateNormal) {
			t.Fatalf("pod %s lifecycle state %q, want Normal", p.Name, s)
		}
	}
	if _, err := client.Patch(ctx, "hook", types.MergePatchType, []byte(`{"spec":{"replicas":1}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	var held string
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		held = ""
		for _, p := range podsOf(t, ns, got) {
			if p.Labels[pub.LifecycleStateKey] == string(pub.LifecycleStatePreparingDelete) {
				if held != "" {
					t.Fatalf("two pods held for deletion (%s, %s) to remove one", held, p.Name)
				}
				held = p.Name
			}
		}
		return held != "", nil
	})
	// Held: for a few resyncs both pods stay.
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		n := len(podsOf(t, ns, got))
		return n == 2, fmt.Sprintf("%d pods while the preDelete hook holds one, want 2", n)
	})
	// The owner of the hook lets go: the pod is deleted.
	if _, err := c.Client.CoreV1().Pods(ns).Patch(ctx, held, types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"example.com/deleting-blocker":null}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		pods := podsOf(t, ns, got)
		return len(pods) == 1 && pods[0].Name != held, nil
	})
}
