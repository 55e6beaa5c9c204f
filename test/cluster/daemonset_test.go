package cluster

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

const lifecycleStateLabel = "lifecycle.apps.kruise.io/state"

func (s *suite) waitDaemonSet(t *testing.T, name string, what string, cond func(*appsv1alpha1.DaemonSet) error) {
	t.Helper()
	must(t, harness.WaitFor(context.Background(), 2*time.Minute, 500*time.Millisecond, "DaemonSet "+name+": "+what, func(ctx context.Context) error {
		ds, err := s.kruise.AppsV1alpha1().DaemonSets("default").Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if ds.Status.ObservedGeneration < ds.Generation {
			return fmt.Errorf("generation not observed")
		}
		return cond(ds)
	}))
}

func dsReady(ds *appsv1alpha1.DaemonSet) error {
	st := ds.Status
	if st.DesiredNumberScheduled != 1 || st.NumberReady != 1 {
		return fmt.Errorf("desired %d ready %d", st.DesiredNumberScheduled, st.NumberReady)
	}
	return nil
}

func (s *suite) deleteDaemonSet(t *testing.T, name, selector string) {
	t.Helper()
	ctx := context.Background()
	must(t, ignoreNotFound(s.kruise.AppsV1alpha1().DaemonSets("default").Delete(ctx, name, metav1.DeleteOptions{})))
	must(t, waitNoPods(ctx, s.c.Client, "default", selector))
}

// testAdvancedDaemonSet: advanced-daemonset.yaml — one pod on the node, running; an image
// change touches no pod, as the rollout's selector names only a node labelled
// kubernetes.io/hostname=node1. Then advanced-daemonset-lifecycle.yaml — a pod the
// controller wants gone while it carries example.io/block-deleting=true waits in
// PreparingDelete, and goes once the label is removed.
func (s *suite) testAdvancedDaemonSet(t *testing.T) {
	ctx := context.Background()
	s.push(t, "nginx:1.7.9", "nginx:1.25-alpine")
	s.apply(t, example(t, "advanced-daemonset.yaml"))
	s.waitDaemonSet(t, "nginx", "1 pod ready", dsReady)
	before := s.onlyPod(t, "k8s-app=nginx")
	if before.Spec.NodeName != harness.NodeName {
		t.Errorf("pod on %q", before.Spec.NodeName)
	}
	t.Logf("kubectl get daemon:\n%s", s.kubectl(t, "get", "daemon", "nginx"))
	s.kubectl(t, "patch", "daemonsets.apps.kruise.io", "nginx", "--type=json",
		"-p", `[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.25-alpine"}]`)
	s.waitDaemonSet(t, "nginx", "update observed, no pod updated", func(ds *appsv1alpha1.DaemonSet) error {
		if ds.Status.UpdatedNumberScheduled != 0 {
			return fmt.Errorf("updatedNumberScheduled %d", ds.Status.UpdatedNumberScheduled)
		}
		return nil
	})
	time.Sleep(5 * time.Second) // the controller has had its chance to touch the pod
	after := s.onlyPod(t, "k8s-app=nginx")
	app, err := appAt(ctx, after.Status.PodIP)
	must(t, err)
	if after.UID != before.UID || app.Image != "docker.io/library/nginx:1.7.9" {
		t.Errorf("the pod was updated (UID %s -> %s, runs %s) although the rollout selector matches no node", before.UID, after.UID, app.Image)
	}
	t.Logf("image changed, rollout selector kubernetes.io/hostname=node1 matches no node: the pod keeps nginx:1.7.9")
	s.deleteDaemonSet(t, "nginx", "k8s-app=nginx")

	s.apply(t, example(t, "advanced-daemonset-lifecycle.yaml"))
	defer s.deleteDaemonSet(t, "nginx-hook", "k8s-app=nginx-hook")
	s.waitDaemonSet(t, "nginx-hook", "1 pod ready", dsReady)
	pod := s.onlyPod(t, "k8s-app=nginx-hook")
	s.kubectl(t, "label", "pod", pod.Name, "example.io/block-deleting=true")
	// The node stops being eligible: the controller deletes the pod, through the hook.
	s.kubectl(t, "patch", "daemonsets.apps.kruise.io", "nginx-hook", "--type=merge",
		"-p", `{"spec":{"template":{"spec":{"nodeSelector":{"example.io/no-such-node":"true"}}}}}`)
	held := s.waitPod(t, pod.Name, time.Minute, "PreparingDelete", func(p *corev1.Pod) error {
		if p.Labels[lifecycleStateLabel] != "PreparingDelete" {
			return fmt.Errorf("state %q", p.Labels[lifecycleStateLabel])
		}
		return nil
	})
	time.Sleep(5 * time.Second)
	held = s.waitPod(t, pod.Name, time.Second, "still there, not terminating", func(p *corev1.Pod) error {
		if p.DeletionTimestamp != nil {
			return fmt.Errorf("deleted although the hook label is there")
		}
		return nil
	})
	t.Logf("pod %s in %s=%s while labelled example.io/block-deleting=true", held.Name, lifecycleStateLabel, held.Labels[lifecycleStateLabel])
	s.kubectl(t, "label", "pod", pod.Name, "example.io/block-deleting-")
	must(t, waitNoPods(ctx, s.c.Client, "default", "k8s-app=nginx-hook"))
	t.Logf("label removed: pod deleted")
}
