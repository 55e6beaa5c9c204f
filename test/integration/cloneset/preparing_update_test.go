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

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// With --feature-gates=PreparingUpdateAsUpdate=true, a pod an inPlaceUpdate hook holds
// in PreparingUpdate counts as updated when the CloneSet scales: scaled up with the
// partition raised alike (still one pod to update), the new pod comes at the current
// revision, and the held pod is the one updated once its hook lets go. (Without the
// gate the new pod takes the update revision and the held pod's preparation is for
// nothing.)
func TestPreparingUpdateCountsAsUpdatedWhenScaling(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	c.RestartKruiseControllers(t, "KRUISE_CONTROLLER_ARGS=--feature-gates=PreparingUpdateAsUpdate=true")
	t.Cleanup(func() { c.RestartKruiseControllers(t) })

	ns := c.CreateNamespace(t)
	client := kruise(t).AppsV1alpha1().CloneSets(ns)
	const hold = "example.com/prepared"
	partition := intstr.FromInt32(2)
	cs := &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "pu"},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To[int32](3),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "pu"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "pu", hold: "true"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}},
					Tolerations: []corev1.Toleration{{Key: "kwok.x-k8s.io/node", Operator: corev1.TolerationOpExists}}},
			},
			UpdateStrategy: v1alpha1.CloneSetUpdateStrategy{Type: v1alpha1.InPlaceIfPossibleCloneSetUpdateStrategyType, Partition: &partition},
			Lifecycle:      &pub.Lifecycle{InPlaceUpdate: &pub.LifecycleHook{LabelsHandler: map[string]string{hold: "true"}}},
		},
	}
	if _, err := client.Create(ctx, cs, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	v1 := waitStatus(t, ns, "pu", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.ReadyReplicas == 3 && s.UpdatedReadyReplicas == 3
	})
	current := v1.Status.UpdateRevision

	if _, err := client.Patch(ctx, "pu", types.JSONPatchType,
		[]byte(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.26"}]`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	// The hook holds the one pod the rollout picked.
	held := heldPod(t, ns, v1, pub.LifecycleStatePreparingUpdate)

	// One more pod, one more at the current revision: still one to update.
	if _, err := client.Patch(ctx, "pu", types.MergePatchType,
		[]byte(`{"spec":{"replicas":4,"updateStrategy":{"partition":3}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	scaled := waitStatus(t, ns, "pu", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.Replicas == 4
	})
	for _, p := range podsOf(t, ns, scaled) {
		if p.Name == held.Name {
			continue
		}
		if rev := p.Labels[pub.ControllerRevisionHashLabelKey]; rev != current {
			t.Fatalf("pod %s is at revision %s, want the current %s: the held pod %s counts as updated", p.Name, rev, current, held.Name)
		}
	}

	// The hook lets go: the held pod, and only it, is updated in place.
	if _, err := c.Client.CoreV1().Pods(ns).Patch(ctx, held.Name, types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"`+hold+`":null}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	done := waitStatus(t, ns, "pu", 2*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.Replicas == 4 && s.UpdatedReplicas == 1 && s.UpdatedReadyReplicas == 1 && s.ReadyReplicas == 4
	})
	for _, p := range podsOf(t, ns, done) {
		updated := p.Labels[pub.ControllerRevisionHashLabelKey] == done.Status.UpdateRevision
		if updated != (p.Name == held.Name) {
			t.Errorf("pod %s updated: %v; want only the held pod %s updated", p.Name, updated, held.Name)
		}
		if p.Name == held.Name && p.UID != held.UID {
			t.Errorf("held pod %s was recreated, want it updated in place", p.Name)
		}
	}
}
