package cloneset

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// With --feature-gates=CloneSetPartitionRollback=true, raising the partition of a
// rollout in progress takes the updated pods back to the current revision, in place
// (same pods, the old image again).
func TestPartitionRollback(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	c.RestartKruiseControllers(t, "KRUISE_CONTROLLER_ARGS=--feature-gates=CloneSetPartitionRollback=true")
	t.Cleanup(func() { c.RestartKruiseControllers(t) })

	ns := c.CreateNamespace(t)
	client := kruise(t).AppsV1alpha1().CloneSets(ns)
	labels := map[string]string{"app": "prb"}
	partition := intstr.FromInt32(1)
	cs := &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "prb"},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To[int32](3),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}},
					Tolerations: []corev1.Toleration{{Key: "kwok.x-k8s.io/node", Operator: corev1.TolerationOpExists}}},
			},
			UpdateStrategy: v1alpha1.CloneSetUpdateStrategy{Type: v1alpha1.InPlaceIfPossibleCloneSetUpdateStrategyType, Partition: &partition},
		},
	}
	if _, err := client.Create(ctx, cs, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	v1 := waitStatus(t, ns, "prb", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.UpdatedReadyReplicas == 3
	})
	uids := map[string]types.UID{}
	for _, p := range podsOf(t, ns, v1) {
		uids[p.Name] = p.UID
	}

	if _, err := client.Patch(ctx, "prb", types.JSONPatchType,
		[]byte(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.26"}]`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, ns, "prb", 2*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.UpdateRevision != v1.Status.UpdateRevision && s.UpdatedReadyReplicas == 2 && s.ReadyReplicas == 3
	})

	// The partition goes up to every pod: the two updated pods go back.
	if _, err := client.Patch(ctx, "prb", types.MergePatchType,
		[]byte(`{"spec":{"updateStrategy":{"partition":3}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	back := waitStatus(t, ns, "prb", 2*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.UpdatedReplicas == 0 && s.ReadyReplicas == 3
	})
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		for _, p := range podsOf(t, ns, back) {
			if p.Labels["controller-revision-hash"] != v1.Status.UpdateRevision || p.Spec.Containers[0].Image != "nginx:1.25" || !isPodReady(&p) {
				return false, nil
			}
		}
		return true, nil
	})
	for _, p := range podsOf(t, ns, back) {
		if uids[p.Name] != p.UID {
			t.Errorf("pod %s was recreated (UID %s, was %s), want it rolled back in place", p.Name, p.UID, uids[p.Name])
		}
	}
}
