package nodedaemon

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// crrNode is the node of the recreate tests.
const crrNode = "kwok-node-1"

// The documented request, for a pod with containers app and sidecar: both containers
// are recreated in place (same pod, new containers, restartCount +1) and the request
// completes.
func TestContainerRecreateRequestExample(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	before := runPod(t, ns, "web", crrNode, map[string]string{"app": "web"},
		corev1.Container{Name: "app", Image: "nginx:1.25"}, corev1.Container{Name: "sidecar", Image: "busybox:1.36"})
	writesBefore := recreateRequestWrites(t, crrNode)

	data, err := os.ReadFile(filepath.Join(c.Root, "examples", "containerrecreaterequest.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	manifest := strings.NewReplacer("POD_NAME", "web", "namespace: default", "namespace: "+ns).Replace(string(data))
	if _, err := c.KubectlStdin(t, manifest, "apply", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var crr *v1alpha1.ContainerRecreateRequest
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		crr, err = kruise(t).AppsV1alpha1().ContainerRecreateRequests(ns).Get(ctx, "crr-demo", metav1.GetOptions{})
		return err == nil && crr.Status.Phase == v1alpha1.ContainerRecreateRequestCompleted, err
	})
	t.Logf("request completed in %s (unreadyGracePeriodSeconds 3, minStartedSeconds 10)", time.Since(start).Round(100*time.Millisecond))

	if crr.Status.CompletionTime == nil || crr.Status.Message != "" {
		t.Errorf("status %s, want a completion time and no message", describe(crr.Status))
	}
	for _, st := range crr.Status.ContainerRecreateStates {
		if st.Phase != v1alpha1.ContainerRecreateRequestSucceeded || !st.IsKilled {
			t.Errorf("container %s: %s, want Succeeded and isKilled", st.Name, describe(st))
		}
	}
	if n := len(crr.Status.ContainerRecreateStates); n != 2 {
		t.Errorf("%d container states, want 2", n)
	}

	after, err := c.Client.CoreV1().Pods(ns).Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if after.UID != before.UID || after.Name != before.Name {
		t.Fatalf("pod replaced: %s/%s → %s/%s", before.Name, before.UID, after.Name, after.UID)
	}
	for _, ctr := range crr.Spec.Containers {
		was, now := containerStatus(before, ctr.Name), containerStatus(after, ctr.Name)
		if ctr.StatusContext == nil || ctr.StatusContext.ContainerID != was.ContainerID || ctr.StatusContext.RestartCount != was.RestartCount {
			t.Errorf("%s: statusContext %s, want the container before the request (%s, %d)", ctr.Name, describe(ctr.StatusContext), was.ContainerID, was.RestartCount)
		}
		if now.RestartCount != was.RestartCount+1 || now.ContainerID == was.ContainerID || now.State.Running == nil {
			t.Errorf("%s: restartCount %d → %d, containerID %s → %s; want one restart into a new running container",
				ctr.Name, was.RestartCount, now.RestartCount, was.ContainerID, now.ContainerID)
		}
	}
	writes := recreateRequestWrites(t, crrNode)
	written, refused := writes["written"]-writesBefore["written"], writes["refused"]-writesBefore["refused"]
	// The contexts come with the create (kruise-apiserver fills them from the pod), so
	// the daemon writes only the states: Recreating, stopped, Succeeded (and at most one
	// more when a write races the kubelet's restart).
	t.Logf("daemon writes for the request: %.0f (Recreating, stopped, Succeeded), %.0f refused", written, refused)
	if written < 3 || written > 4 {
		t.Errorf("the daemon wrote %.0f times for one request, want 3 or 4", written)
	}

	// One writer per field: the daemon's are the container states, kruise-controller's
	// the completion and its message; the contexts are set at create, not by the daemon.
	for _, f := range []struct {
		path []string
		want string
	}{
		{[]string{"f:status", "f:containerRecreateStates"}, "kruise-node-daemon"},
		{[]string{"f:status", "f:completionTime"}, "containerrecreaterequest-controller"},
		{[]string{"f:metadata", "f:annotations", "f:" + v1alpha1.ContainerRecreateRequestUnreadyAcquiredKey}, "containerrecreaterequest-controller"},
	} {
		got := managersOf(crr, f.path...)
		if len(got) != 1 || got[0] != f.want {
			t.Errorf("%s written by %v, want %s only", strings.Join(f.path, "."), got, f.want)
		}
	}
	if got := managersOf(crr, "f:spec", "f:containers", `k:{"name":"app"}`, "f:statusContext"); slices.Contains(got, "kruise-node-daemon") {
		t.Errorf("statusContext written by %v: the node daemon rewrote what the create set", got)
	}
}

// A request whose pod goes away before it can start fails, naming the pod.
func TestContainerRecreateRequestPodGone(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	runPod(t, ns, "short-lived", crrNode, nil, corev1.Container{Name: "app", Image: "nginx:1.25"})
	crr := &v1alpha1.ContainerRecreateRequest{
		ObjectMeta: metav1.ObjectMeta{Name: "gone", Namespace: ns},
		Spec: v1alpha1.ContainerRecreateRequestSpec{PodName: "short-lived",
			Containers: []v1alpha1.ContainerRecreateRequestContainer{{Name: "app"}},
			// waits for the pod to be made unready for an hour: it cannot start before
			// the pod is deleted
			Strategy: &v1alpha1.ContainerRecreateRequestStrategy{UnreadyGracePeriodSeconds: ptrTo[int64](3600)}},
	}
	if _, err := kruise(t).AppsV1alpha1().ContainerRecreateRequests(ns).Create(ctx, crr, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Client.CoreV1().Pods(ns).Delete(ctx, "short-lived", metav1.DeleteOptions{GracePeriodSeconds: ptrTo[int64](0)}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		got, err := kruise(t).AppsV1alpha1().ContainerRecreateRequests(ns).Get(ctx, "gone", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return got.Status.Phase == v1alpha1.ContainerRecreateRequestFailed && strings.Contains(got.Status.Message, "short-lived") &&
			got.Status.CompletionTime != nil, nil
	})
}

// A daemon restarted while a request waits for its containers to have run long enough
// carries on from the stored request and pod: the request completes and no container
// is stopped a second time (each restartCount is +1, not +2).
func TestContainerRecreateRequestSurvivesDaemonRestart(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	before := runPod(t, ns, "web", crrNode, nil,
		corev1.Container{Name: "app", Image: "nginx:1.25"}, corev1.Container{Name: "sidecar", Image: "busybox:1.36"})
	crr := &v1alpha1.ContainerRecreateRequest{
		ObjectMeta: metav1.ObjectMeta{Name: "restart", Namespace: ns},
		Spec: v1alpha1.ContainerRecreateRequestSpec{PodName: "web",
			Containers: []v1alpha1.ContainerRecreateRequestContainer{{Name: "app"}, {Name: "sidecar"}},
			Strategy:   &v1alpha1.ContainerRecreateRequestStrategy{MinStartedSeconds: 15}},
	}
	if _, err := kruise(t).AppsV1alpha1().ContainerRecreateRequests(ns).Create(ctx, crr, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// Both stopped and started again, not yet running for minStartedSeconds.
	waitPod(t, ns, "web", time.Minute, func(p *corev1.Pod) bool {
		for _, name := range []string{"app", "sidecar"} {
			if containerStatus(p, name).RestartCount != containerStatus(before, name).RestartCount+1 {
				return false
			}
		}
		return true
	})
	got, err := kruise(t).AppsV1alpha1().ContainerRecreateRequests(ns).Get(ctx, "restart", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status.Phase != v1alpha1.ContainerRecreateRequestRecreating {
		t.Fatalf("before the restart: %s, want Recreating (minStartedSeconds 15)", describe(got.Status))
	}

	component := "kruise-node-daemon-" + crrNode
	c.StopComponent(t, component)
	c.StartComponent(t, component)

	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		got, err = kruise(t).AppsV1alpha1().ContainerRecreateRequests(ns).Get(ctx, "restart", metav1.GetOptions{})
		return err == nil && got.Status.Phase == v1alpha1.ContainerRecreateRequestCompleted, err
	})
	after, err := c.Client.CoreV1().Pods(ns).Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range got.Status.ContainerRecreateStates {
		if st.Phase != v1alpha1.ContainerRecreateRequestSucceeded {
			t.Errorf("%s: %s, want Succeeded", st.Name, describe(st))
		}
		if was, now := containerStatus(before, st.Name).RestartCount, containerStatus(after, st.Name).RestartCount; now != was+1 {
			t.Errorf("%s: restartCount %d → %d, want +1 (stopped once)", st.Name, was, now)
		}
	}
}
