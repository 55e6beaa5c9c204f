package cloneset

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// cloneset-inplace-partition.yaml: changing the image updates pods in place (same name,
// UID and IP; restartCount +1; event SuccessfulUpdatePodInPlace), and partition 2 keeps
// exactly 2 pods on the old revision.
func TestInPlaceUpdateWithPartition(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	applyExample(t, ns, "cloneset-inplace-partition.yaml", nil)
	before := waitStatus(t, ns, "cs-demo", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.Replicas == 4 && s.ReadyReplicas == 4
	})
	oldPods := map[string]corev1.Pod{}
	for _, p := range podsOf(t, ns, before) {
		oldPods[p.Name] = p
	}

	if _, err := kruise(t).AppsV1alpha1().CloneSets(ns).Patch(ctx, "cs-demo", types.JSONPatchType,
		[]byte(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.27"}]`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	after := waitStatus(t, ns, "cs-demo", 2*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.UpdateRevision != before.Status.UpdateRevision && s.UpdatedReplicas == 2 && s.UpdatedReadyReplicas == 2 && s.ReadyReplicas == 4
	})
	if after.Status.ExpectedUpdatedReplicas != 2 {
		t.Errorf("expectedUpdatedReplicas = %d, want 2", after.Status.ExpectedUpdatedReplicas)
	}
	updated, old := 0, 0
	for _, p := range podsOf(t, ns, after) {
		was, ok := oldPods[p.Name]
		if !ok || was.UID != p.UID {
			t.Fatalf("pod %s is new: in-place updates keep pod names and UIDs", p.Name)
		}
		if was.Status.PodIP != p.Status.PodIP {
			t.Errorf("pod %s changed IP %s -> %s", p.Name, was.Status.PodIP, p.Status.PodIP)
		}
		switch p.Labels["controller-revision-hash"] {
		case after.Status.UpdateRevision:
			updated++
			if p.Spec.Containers[0].Image != "nginx:1.27" {
				t.Errorf("updated pod %s runs %s", p.Name, p.Spec.Containers[0].Image)
			}
			if got, was := p.Status.ContainerStatuses[0].RestartCount, was.Status.ContainerStatuses[0].RestartCount; got != was+1 {
				t.Errorf("pod %s restartCount %d -> %d, want +1", p.Name, was, got)
			}
			if p.Annotations["apps.kruise.io/inplace-update-state"] == "" {
				t.Errorf("pod %s lacks the in-place update state annotation", p.Name)
			}
		default:
			old++
			if p.Spec.Containers[0].Image != "nginx:latest" {
				t.Errorf("old pod %s runs %s", p.Name, p.Spec.Containers[0].Image)
			}
		}
	}
	if updated != 2 || old != 2 {
		t.Fatalf("%d updated and %d old pods, want 2 and 2 (partition 2)", updated, old)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		return eventReasons(t, ns, "cs-demo")["SuccessfulUpdatePodInPlace"] >= 2, nil
	})

	// Lowering the partition to 0 finishes the rollout, still in place.
	if _, err := kruise(t).AppsV1alpha1().CloneSets(ns).Patch(ctx, "cs-demo", types.MergePatchType,
		[]byte(`{"spec":{"updateStrategy":{"partition":0}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	done := waitStatus(t, ns, "cs-demo", 2*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.UpdatedReadyReplicas == 4 && s.CurrentRevision == s.UpdateRevision
	})
	for _, p := range podsOf(t, ns, done) {
		if oldPods[p.Name].UID != p.UID {
			t.Fatalf("pod %s was recreated", p.Name)
		}
	}
}
