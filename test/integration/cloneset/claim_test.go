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

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A CloneSet adopts an orphan pod that matches its selector (the orphan counts towards
// replicas: one pod fewer is created) and releases a pod whose labels no longer match
// (the pod stays, without an owner, and a replacement is created), as kube's
// ReplicaSet and OpenKruise's CloneSet do. Updates are paused so that the adopted
// pod, which runs no revision of the CloneSet, is not recreated by the rollout.
func TestAdoptOrphanAndReleaseRelabelled(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	labels := map[string]string{"app": "claim"}
	podSpec := corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:alpine"}}}
	orphan, err := c.Client.CoreV1().Pods(ns).Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "orphan", Labels: labels}, Spec: podSpec,
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := kruise(t).AppsV1alpha1().CloneSets(ns).Create(ctx, &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "cs-claim"},
		Spec: v1alpha1.CloneSetSpec{
			Replicas:       ptr.To[int32](2),
			Selector:       &metav1.LabelSelector{MatchLabels: labels},
			Template:       corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: podSpec},
			UpdateStrategy: v1alpha1.CloneSetUpdateStrategy{Paused: true},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	controllerOf := func(name string) (*metav1.OwnerReference, types.UID, error) {
		p, err := c.Client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return nil, "", err
		}
		return metav1.GetControllerOf(p), p.UID, nil
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		ref, _, err := controllerOf(orphan.Name)
		return ref != nil && ref.UID == cs.UID, err
	})
	waitStatus(t, ns, cs.Name, time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool { return s.Replicas == 2 })
	framework.Consistently(t, 5*time.Second, func() (bool, string) {
		pods := podsOf(t, ns, cs)
		ref, uid, err := controllerOf(orphan.Name)
		ok := len(pods) == 2 && err == nil && ref != nil && ref.UID == cs.UID && uid == orphan.UID
		return ok, fmt.Sprintf("%d pods, the adopted one controlled by %v (err %v)", len(pods), ref, err)
	})

	// Relabel the pod the CloneSet created: it is released and replaced.
	var created string
	for _, p := range podsOf(t, ns, cs) {
		if p.Name != orphan.Name {
			created = p.Name
		}
	}
	patch := []byte(`{"metadata":{"labels":{"app":"gone"}}}`)
	if _, err := c.Client.CoreV1().Pods(ns).Patch(ctx, created, types.StrategicMergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		ref, _, err := controllerOf(created)
		return err == nil && ref == nil, err
	})
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		pods := podsOf(t, ns, cs)
		for _, p := range pods {
			if p.Name == created {
				return false, nil
			}
		}
		return len(pods) == 2, nil
	})
	framework.Consistently(t, 5*time.Second, func() (bool, string) {
		ref, _, err := controllerOf(created)
		return err == nil && ref == nil, fmt.Sprintf("released pod %s: controller %v, err %v", created, ref, err)
	})
}
