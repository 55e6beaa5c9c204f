package cloneset

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// POST .../clonesets/<name>/rollback with toRevision 0 restores the previous template,
// and the pods follow it back in place; an unknown revision is a 400 naming those that exist.
func TestRollbackToPreviousRevision(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	client := kruise(t).AppsV1alpha1().CloneSets(ns)
	labels := map[string]string{"app": "rb"}
	cs := &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "rb"},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To[int32](2),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}}},
			},
			UpdateStrategy: v1alpha1.CloneSetUpdateStrategy{Type: v1alpha1.InPlaceIfPossibleCloneSetUpdateStrategyType},
		},
	}
	if _, err := client.Create(ctx, cs, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	v1 := waitStatus(t, ns, "rb", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.UpdatedReadyReplicas == 2
	})
	uids := map[string]types.UID{}
	for _, p := range podsOf(t, ns, v1) {
		uids[p.Name] = p.UID
	}

	if _, err := client.Patch(ctx, "rb", types.JSONPatchType,
		[]byte(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.26"}]`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	v2 := waitStatus(t, ns, "rb", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.UpdateRevision != v1.Status.UpdateRevision && s.UpdatedReadyReplicas == 2 && s.CurrentRevision == s.UpdateRevision
	})

	_, err := client.Rollback(ctx, "rb", &v1alpha1.CloneSetRollback{ToRevision: 42}, metav1.CreateOptions{})
	if !apierrors.IsBadRequest(err) || !strings.Contains(err.Error(), "available revisions: 1, 2") {
		t.Fatalf("rollback to revision 42: %v, want 400 listing revisions 1, 2", err)
	}
	rolled, err := client.Rollback(ctx, "rb", &v1alpha1.CloneSetRollback{ToRevision: 0}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("rollback to the previous revision: %v", err)
	}
	if img := rolled.Spec.Template.Spec.Containers[0].Image; img != "nginx:1.25" {
		t.Fatalf("template image after rollback = %s, want nginx:1.25", img)
	}
	waitStatus(t, ns, "rb", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.UpdateRevision == v1.Status.UpdateRevision && s.UpdatedReadyReplicas == 2 && s.CurrentRevision == s.UpdateRevision
	})
	for _, p := range podsOf(t, ns, v2) {
		if uids[p.Name] != p.UID {
			t.Errorf("pod %s was recreated (UID changed); rollback must be in place", p.Name)
		}
		if p.Spec.Containers[0].Image != "nginx:1.25" {
			t.Errorf("pod %s runs %s after rollback", p.Name, p.Spec.Containers[0].Image)
		}
	}
}

// A CloneSet deleted and created again under the same name with the same template gets
// revisions of its own, not the ones its namesake left for the garbage collector.
func TestRecreatedNamesakeOwnsItsRevisions(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	client := kruise(t).AppsV1alpha1().CloneSets(ns)
	labels := map[string]string{"app": "again"}
	newCS := func() *v1alpha1.CloneSet {
		return &v1alpha1.CloneSet{
			ObjectMeta: metav1.ObjectMeta{Name: "again"},
			Spec: v1alpha1.CloneSetSpec{
				Replicas: ptr.To[int32](1),
				Selector: &metav1.LabelSelector{MatchLabels: labels},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: labels},
					Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx"}}},
				},
			},
		}
	}
	if _, err := client.Create(ctx, newCS(), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, ns, "again", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool { return s.ReadyReplicas == 1 })
	if err := client.Delete(ctx, "again", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Create(ctx, newCS(), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	second := waitStatus(t, ns, "again", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.UpdateRevision != "" && s.UpdatedReadyReplicas == 1
	})
	rev, err := c.Client.AppsV1().ControllerRevisions(ns).Get(ctx, second.Status.UpdateRevision, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ref := metav1.GetControllerOf(rev); ref == nil || ref.UID != second.UID {
		t.Fatalf("revision %s is controlled by %v, want the new CloneSet %s", rev.Name, ref, second.UID)
	}
}
