package fakecri

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	fakeruntime "github.com/kruise-native/kruise-native/internal/fakecri"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A pod kwok runs gets a container in the fake runtime; a CRI client that stops it (as
// the node daemon does to recreate a container) sees the simulator restart it with
// restartCount+1 in pod status, and with the env of the pod's current annotations; the
// pod's deletion removes its sandbox.
func TestRestartThroughCRI(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	node := startSimNode(t)
	ctx := context.Background()

	pod := node.createPod(t, ns, "web", "v1")
	first, running := waitRunningContainer(t, ns, "web", "", 0)
	containers, err := node.cri.ListContainers(ctx, &runtimeapi.ContainerFilter{LabelSelector: map[string]string{
		fakeruntime.LabelPodUID: string(pod.UID), fakeruntime.LabelContainerName: "app",
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(containers) != 1 || containers[0].Id != first || containers[0].State != runtimeapi.ContainerState_CONTAINER_RUNNING {
		t.Fatalf("CRI lists %v for the pod, want running container %s", containers, first)
	}
	if env := node.containerEnv(t, first); env["VERSION"] != "v1" || env["POD_NAME"] != "web" {
		t.Errorf("env of the first container = %v, want VERSION=v1 POD_NAME=web", env)
	}
	if cs := running.Status.ContainerStatuses[0]; cs.Image != "nginx:1.9.1" {
		t.Errorf("status image %q: the simulator must keep kwok's image", cs.Image)
	}

	// Stop through CRI: the simulator restarts the container like kubelet.
	if err := node.cri.StopContainer(ctx, first, 5); err != nil {
		t.Fatal(err)
	}
	second, restarted := waitRunningContainer(t, ns, "web", first, 1)
	last := restarted.Status.ContainerStatuses[0].LastTerminationState.Terminated
	if last == nil || last.ContainerID != fakeruntime.ContainerIDPrefix+first || last.ExitCode != 0 || last.FinishedAt.IsZero() {
		t.Errorf("lastState after the restart = %+v, want the first container terminated", last)
	}
	if env := node.containerEnv(t, second); env["VERSION"] != "v1" {
		t.Errorf("env after a plain restart = %v, want VERSION=v1", env)
	}

	// New annotation, then a stop: the next container starts with the new value.
	patch := []byte(`{"metadata":{"annotations":{"demo/version":"v2"}}}`)
	if _, err := c.Client.CoreV1().Pods(ns).Patch(ctx, "web", types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := node.cri.StopContainer(ctx, second, 5); err != nil {
		t.Fatal(err)
	}
	third, _ := waitRunningContainer(t, ns, "web", second, 2)
	if env := node.containerEnv(t, third); env["VERSION"] != "v2" {
		t.Errorf("env after the annotation change and a restart = %v, want VERSION=v2", env)
	}

	// Deleting the pod (kwok removes it at once) removes its sandbox and containers.
	if len(node.sandboxesOf(t, string(pod.UID))) != 1 {
		t.Fatalf("want one sandbox for the pod before its deletion")
	}
	if err := c.Client.CoreV1().Pods(ns).Delete(ctx, "web", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		if n := len(node.sandboxesOf(t, string(pod.UID))); n != 0 {
			return false, fmt.Errorf("%d sandboxes left", n)
		}
		left, err := node.cri.ListContainers(ctx, &runtimeapi.ContainerFilter{LabelSelector: map[string]string{fakeruntime.LabelPodUID: string(pod.UID)}})
		if err != nil || len(left) != 0 {
			return false, fmt.Errorf("%d containers left (%v)", len(left), err)
		}
		return true, nil
	})
}

// An in-place image change on a kwok pod: kwok's pod-inplace-image-update stage reports
// the new image with restartCount+1 (and drops the containerIDs, containerStatuses being
// an atomic list); the simulator replaces the container with one of the new image and
// puts a consistent containerID back, without counting a second restart.
func TestFollowsKwokInPlaceImageUpdate(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	node := startSimNode(t)
	ctx := context.Background()

	node.createPod(t, ns, "web", "v1")
	old, _ := waitRunningContainer(t, ns, "web", "", 0)

	patch := []byte(`{"spec":{"containers":[{"name":"app","image":"nginx:1.10"}]}}`)
	if _, err := c.Client.CoreV1().Pods(ns).Patch(ctx, "web", types.StrategicMergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	updated, pod := waitRunningContainer(t, ns, "web", old, 1)
	st, err := node.cri.ContainerStatus(ctx, updated, false)
	if err != nil {
		t.Fatal(err)
	}
	if st.Status.Image.GetImage() != "docker.io/library/nginx:1.10" || st.Status.State != runtimeapi.ContainerState_CONTAINER_RUNNING {
		t.Errorf("runtime container after the image change: image %q state %v, want nginx:1.10 running", st.Status.Image.GetImage(), st.Status.State)
	}
	if cs := pod.Status.ContainerStatuses[0]; cs.Image != "nginx:1.10" || cs.ImageID == "" {
		t.Errorf("status after the image change: image %q imageID %q, want kwok's new image and imageID", cs.Image, cs.ImageID)
	}
	oldStatus, err := node.cri.ContainerStatus(ctx, old, false)
	if err != nil || oldStatus.Status.State != runtimeapi.ContainerState_CONTAINER_EXITED {
		t.Errorf("old container: %v, %v; want exited", oldStatus, err)
	}
	// One running container for the pod: the image change replaced the old one.
	running, err := node.cri.ListContainers(ctx, &runtimeapi.ContainerFilter{
		LabelSelector: map[string]string{fakeruntime.LabelPodUID: string(pod.UID)},
		State:         &runtimeapi.ContainerStateValue{State: runtimeapi.ContainerState_CONTAINER_RUNNING},
	})
	if err != nil || len(running) != 1 || running[0].Id != updated {
		t.Errorf("running containers of the pod = %v, %v; want only %s", running, err, updated)
	}
}
