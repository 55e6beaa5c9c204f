package daemonset

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const blockLabel = "example.io/block-deleting"

// A pod whose node loses the node selector's label is to be deleted; while it carries
// the preDelete hook's label it waits in PreparingDelete, and it goes once the label is
// removed.
func TestPreDeleteHoldsPodUntilLabelRemoved(t *testing.T) {
	ns := framework.Get(t).CreateNamespace(t)
	const label = "ads-hook"
	addNode(t, "ads-hook-a", map[string]string{label: "yes"})
	ds := newDaemonSet("hooked", label, nil)
	// The template's labels, not the selector's (newDaemonSet shares one map).
	ds.Spec.Template.Labels = map[string]string{"app": ds.Name, blockLabel: "true"}
	ds.Spec.Lifecycle = &pub.Lifecycle{PreDelete: &pub.LifecycleHook{LabelsHandler: map[string]string{blockLabel: "true"}}}
	ds = createDS(t, ns, ds)
	pod := waitOnePodPerNode(t, ns, ds, []string{"ads-hook-a"})["ads-hook-a"]

	labelNode(t, "ads-hook-a", label, "")
	held := waitHeld(t, ns, pod.Name)
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		p, err := podClient(t, ns).Get(context.Background(), pod.Name, metav1.GetOptions{})
		if err != nil || p.UID != held.UID || p.DeletionTimestamp != nil {
			return false, fmt.Sprintf("pod %s deleted while its preDelete hook holds it (err %v)", pod.Name, err)
		}
		return true, ""
	})

	unlabelPod(t, ns, pod.Name, blockLabel)
	waitPodDeleted(t, ns, pod.Name, held.UID)
	waitStatus(t, ns, ds.Name, time.Minute, func(s v1beta1.DaemonSetStatus) bool {
		return s.DesiredNumberScheduled == 0 && s.CurrentNumberScheduled == 0
	})
}

// The documented lifecycle manifest, applied unchanged: pods the hook's owner marks
// with example.io/block-deleting wait in PreparingDelete when a rollout recreates them,
// until the label is removed; paused with partition 10, it touches nothing until
// resumed.
func TestExampleLifecycleHook(t *testing.T) {
	addNode(t, "node1", nil)
	applyExample(t, "advanced-daemonset-lifecycle.yaml")
	const ns, name = "default", "nginx-hook"
	nodes := nodeNames(t)
	desired := int32(len(nodes))
	ds := waitStatus(t, ns, name, 2*time.Minute, func(s v1beta1.DaemonSetStatus) bool { return settled(s, desired) })
	before := waitOnePodPerNode(t, ns, ds, nodes)
	for _, p := range before {
		if got := p.Labels[pub.LifecycleStateKey]; got != string(pub.LifecycleStateNormal) {
			t.Errorf("pod %s lifecycle state %q, want Normal", p.Name, got)
		}
		labelPod(t, ns, p.Name, blockLabel, "true")
	}

	// A change in-place cannot carry (env) recreates pods: still paused, nothing moves.
	updateDS(t, ns, name, func(ds *v1beta1.DaemonSet) {
		ds.Spec.Template.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "HOOKED", Value: "1"}}
	})
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		for node, p := range before {
			got, err := podClient(t, ns).Get(context.Background(), p.Name, metav1.GetOptions{})
			if err != nil || got.Labels[pub.LifecycleStateKey] != string(pub.LifecycleStateNormal) {
				return false, fmt.Sprintf("paused rollout touched the pod of %s (err %v)", node, err)
			}
		}
		return true, ""
	})

	updateDS(t, ns, name, func(ds *v1beta1.DaemonSet) {
		paused, zero := false, int32(0)
		ds.Spec.UpdateStrategy.RollingUpdate.Paused = &paused
		ds.Spec.UpdateStrategy.RollingUpdate.Partition = &zero
	})
	var heldPod *corev1.Pod
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		for _, p := range before {
			got, err := podClient(t, ns).Get(context.Background(), p.Name, metav1.GetOptions{})
			if err != nil {
				return false, fmt.Errorf("pod %s of a held node: %w", p.Name, err)
			}
			if got.Labels[pub.LifecycleStateKey] == string(pub.LifecycleStatePreparingDelete) {
				heldPod = got
				return true, nil
			}
		}
		return false, fmt.Errorf("no pod in PreparingDelete yet")
	})
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		p, err := podClient(t, ns).Get(context.Background(), heldPod.Name, metav1.GetOptions{})
		if err != nil || p.DeletionTimestamp != nil {
			return false, fmt.Sprintf("pod %s deleted while labelled %s (err %v)", heldPod.Name, blockLabel, err)
		}
		return true, ""
	})
	for _, p := range before {
		unlabelPod(t, ns, p.Name, blockLabel)
	}
	waitStatus(t, ns, name, 2*time.Minute, func(s v1beta1.DaemonSetStatus) bool {
		return settled(s, desired) && s.UpdatedNumberScheduled == desired
	})
	after := waitOnePodPerNode(t, ns, ds, nodes)
	for node, p := range after {
		if p.UID == before[node].UID || len(p.Spec.Containers[0].Env) != 1 {
			t.Errorf("node %s runs %s (env %v), want a recreated pod at the new revision", node, p.Name, p.Spec.Containers[0].Env)
		}
	}
}

func podClient(t *testing.T, ns string) corev1client.PodInterface {
	return framework.Get(t).Client.CoreV1().Pods(ns)
}

func labelPod(t *testing.T, ns, name, key, value string) {
	t.Helper()
	patch := fmt.Sprintf(`{"metadata":{"labels":{%q:%q}}}`, key, value)
	if _, err := podClient(t, ns).Patch(context.Background(), name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatalf("labelling pod %s: %v", name, err)
	}
}

func unlabelPod(t *testing.T, ns, name, key string) {
	t.Helper()
	patch := fmt.Sprintf(`{"metadata":{"labels":{%q:null}}}`, key)
	_, err := podClient(t, ns).Patch(context.Background(), name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatalf("unlabelling pod %s: %v", name, err)
	}
}

// waitHeld waits for the pod to be in PreparingDelete, not deleted.
func waitHeld(t *testing.T, ns, name string) *corev1.Pod {
	t.Helper()
	var pod *corev1.Pod
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		p, err := podClient(t, ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if p.DeletionTimestamp != nil {
			return false, fmt.Errorf("pod %s deleted despite its preDelete hook", name)
		}
		pod = p
		if state := p.Labels[pub.LifecycleStateKey]; state != string(pub.LifecycleStatePreparingDelete) {
			return false, fmt.Errorf("pod %s in lifecycle state %q", name, state)
		}
		return true, nil
	})
	return pod
}

// waitPodDeleted waits for the controller to delete the pod: it is gone or terminating.
func waitPodDeleted(t *testing.T, ns, name string, uid types.UID) {
	t.Helper()
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		p, err := podClient(t, ns).Get(context.Background(), name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) || (err == nil && (p.UID != uid || p.DeletionTimestamp != nil)) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		return false, fmt.Errorf("pod %s not deleted: lifecycle state %q, labels %v", name, p.Labels[pub.LifecycleStateKey], p.Labels)
	})
}

// An inPlaceUpdate hook holds an in-place update: the pod waits in PreparingUpdate at
// its old image while it carries the hook's label; once the label is removed it is
// updated in place (same UID) and waits in Updated until the label is back, then is
// Normal.
func TestInPlaceUpdateHook(t *testing.T) {
	ns := framework.Get(t).CreateNamespace(t)
	const label, hold = "ads-iphook", "example.io/hold-update"
	addNode(t, "ads-iphook-a", map[string]string{label: "yes"})
	ds := newDaemonSet("hooked", label, &v1beta1.RollingUpdateDaemonSet{Type: v1beta1.InplaceRollingUpdateType})
	ds.Spec.Template.Labels = map[string]string{"app": ds.Name, hold: "true"}
	ds.Spec.Lifecycle = &pub.Lifecycle{InPlaceUpdate: &pub.LifecycleHook{LabelsHandler: map[string]string{hold: "true"}}}
	ds = createDS(t, ns, ds)
	pod := waitOnePodPerNode(t, ns, ds, []string{"ads-iphook-a"})["ads-iphook-a"]

	setImage(t, ns, ds.Name, "nginx:1.9.1")
	waitState := func(want pub.LifecycleStateType) *corev1.Pod {
		t.Helper()
		var got *corev1.Pod
		framework.WaitFor(t, time.Minute, func() (bool, error) {
			p, err := podClient(t, ns).Get(context.Background(), pod.Name, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			if p.UID != pod.UID {
				return false, fmt.Errorf("pod %s recreated, want it updated in place", pod.Name)
			}
			got = p
			if state := p.Labels[pub.LifecycleStateKey]; state != string(want) {
				return false, fmt.Errorf("pod %s in lifecycle state %q, want %s", pod.Name, state, want)
			}
			return true, nil
		})
		return got
	}
	waitState(pub.LifecycleStatePreparingUpdate)
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		p, err := podClient(t, ns).Get(context.Background(), pod.Name, metav1.GetOptions{})
		if err != nil || p.Spec.Containers[0].Image != "nginx:1.7.9" {
			return false, fmt.Sprintf("pod %s updated while its inPlaceUpdate hook holds it (err %v)", pod.Name, err)
		}
		return true, ""
	})

	unlabelPod(t, ns, pod.Name, hold)
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		p, err := podClient(t, ns).Get(context.Background(), pod.Name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if image, restarts := imageOf(*p); p.UID != pod.UID || image != "nginx:1.9.1" || restarts != 1 {
			return false, fmt.Errorf("pod %s (uid %s) at %s, %d restarts; want %s updated in place", p.Name, p.UID, image, restarts, pod.UID)
		}
		return true, nil
	})
	waitState(pub.LifecycleStateUpdated)
	labelPod(t, ns, pod.Name, hold, "true")
	waitState(pub.LifecycleStateNormal)
	waitStatus(t, ns, ds.Name, time.Minute, func(s v1beta1.DaemonSetStatus) bool { return settled(s, 1) })
}
