package cloneset

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// cloneset-env-from-annotation.yaml: changing the app-config annotation restarts only
// the container whose env reads it, in place, and the new container sees the new value.
func TestEnvFromAnnotationRestartsInPlace(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	applyExample(t, ns, "cloneset-env-from-annotation.yaml", nil)
	before := waitStatus(t, ns, "cs-env", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.ReadyReplicas == 1
	})
	old := onlyPod(t, ns, before)
	oldApp := containerStatus(old, "app")

	if _, err := kruise(t).AppsV1alpha1().CloneSets(ns).Patch(ctx, "cs-env", types.MergePatchType,
		[]byte(`{"spec":{"template":{"metadata":{"annotations":{"app-config":"the new value"}}}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	after := waitStatus(t, ns, "cs-env", 2*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.UpdateRevision != before.Status.UpdateRevision && s.UpdatedReadyReplicas == 1 && s.CurrentRevision == s.UpdateRevision
	})
	pod := onlyPod(t, ns, after)
	if pod.UID != old.UID {
		t.Fatalf("pod recreated (%s → %s), want an in-place update", old.UID, pod.UID)
	}
	app := containerStatus(pod, "app")
	if app.RestartCount != oldApp.RestartCount+1 || app.ContainerID == oldApp.ContainerID {
		t.Fatalf("app: restartCount %d → %d, id %s → %s; want one restart", oldApp.RestartCount, app.RestartCount, oldApp.ContainerID, app.ContainerID)
	}
	if got := runtimeEnv(t, pod.Spec.NodeName, app.ContainerID)["APP_CONFIG"]; got != "the new value" {
		t.Fatalf("the restarted container sees APP_CONFIG=%q, want the new annotation value", got)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		return eventReasons(t, ns, "cs-env")["SuccessfulUpdatePodInPlace"] >= 1, nil
	})
}

// cloneset-container-priority.yaml: updating the annotation and the main image updates
// the sidecar (priority 10) first, then main; the state annotation records both batches.
func TestContainerPriorityBatches(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	applyExample(t, ns, "cloneset-container-priority.yaml", nil)
	before := waitStatus(t, ns, "cs-prio", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.ReadyReplicas == 1
	})
	old := onlyPod(t, ns, before)

	patch := `[{"op":"replace","path":"/spec/template/metadata/annotations/app-config","value":"... config v2 ..."},
	  {"op":"replace","path":"/spec/template/spec/containers/1/image","value":"main-image:v2"}]`
	if _, err := kruise(t).AppsV1alpha1().CloneSets(ns).Patch(ctx, "cs-prio", types.JSONPatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	after := waitStatus(t, ns, "cs-prio", 2*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.UpdateRevision != before.Status.UpdateRevision && s.UpdatedReadyReplicas == 1 && s.CurrentRevision == s.UpdateRevision
	})
	// The CloneSet counts the pod updated once it is ready at the new revision; kwok's
	// in-place image stage may have written that status without the container IDs the
	// node's runtime reports a moment later. Wait for the runtime's IDs before asking it.
	var pod corev1.Pod
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		pod = onlyPod(t, ns, after)
		return containerStatus(pod, "sidecar").ContainerID != "" && containerStatus(pod, "main").ContainerID != "", nil
	})
	if pod.UID != old.UID {
		t.Fatalf("pod recreated, want an in-place update")
	}
	for _, name := range []string{"sidecar", "main"} {
		if got, was := containerStatus(pod, name).RestartCount, containerStatus(old, name).RestartCount; got != was+1 {
			t.Errorf("%s: restartCount %d → %d, want +1", name, was, got)
		}
	}
	if got := runtimeEnv(t, pod.Spec.NodeName, containerStatus(pod, "sidecar").ContainerID)["APP_CONFIG"]; got != "... config v2 ..." {
		t.Errorf("sidecar sees APP_CONFIG=%q after the update", got)
	}

	// The part of OpenKruise's InPlaceUpdateState this test reads.
	var state struct {
		ContainerBatchesRecord []struct {
			Timestamp  metav1.Time `json:"timestamp"`
			Containers []string    `json:"containers"`
		} `json:"containerBatchesRecord"`
	}
	if err := json.Unmarshal([]byte(pod.Annotations["apps.kruise.io/inplace-update-state"]), &state); err != nil {
		t.Fatalf("in-place update state: %v", err)
	}
	var batches [][]string
	for _, b := range state.ContainerBatchesRecord {
		batches = append(batches, b.Containers)
	}
	if len(batches) != 2 || !slices.Equal(batches[0], []string{"sidecar"}) || !slices.Equal(batches[1], []string{"main"}) {
		t.Fatalf("containerBatchesRecord = %v, want [[sidecar] [main]]", batches)
	}
	if !state.ContainerBatchesRecord[0].Timestamp.Time.Before(state.ContainerBatchesRecord[1].Timestamp.Time) &&
		!state.ContainerBatchesRecord[0].Timestamp.Equal(&state.ContainerBatchesRecord[1].Timestamp) {
		t.Errorf("sidecar's batch is not before main's: %v", state.ContainerBatchesRecord)
	}
}

func onlyPod(t *testing.T, ns string, cs *v1alpha1.CloneSet) corev1.Pod {
	t.Helper()
	pods := podsOf(t, ns, cs)
	if len(pods) != 1 {
		t.Fatalf("%d pods, want 1", len(pods))
	}
	return pods[0]
}

func containerStatus(pod corev1.Pod, name string) corev1.ContainerStatus {
	for _, s := range pod.Status.ContainerStatuses {
		if s.Name == name {
			return s
		}
	}
	return corev1.ContainerStatus{}
}

// runtimeEnv reads the env a container was started with from its node's runtime (the
// fake CRI runtime of the local stack), as `crictl inspect` would.
func runtimeEnv(t *testing.T, node, containerID string) map[string]string {
	t.Helper()
	socket := filepath.Join(framework.Get(t).LocalDir, "cri", node+".sock")
	conn, err := grpc.NewClient("unix://"+socket, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	id := containerID
	if i := len("fakecri://"); len(id) > i && id[:i] == "fakecri://" {
		id = id[i:]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := runtimeapi.NewRuntimeServiceClient(conn).ContainerStatus(ctx, &runtimeapi.ContainerStatusRequest{ContainerId: id, Verbose: true})
	if err != nil {
		t.Fatalf("ContainerStatus %s on %s: %v", id, node, err)
	}
	var info struct {
		Config struct {
			Envs []struct{ Key, Value string } `json:"envs"`
		} `json:"config"`
	}
	if err := json.Unmarshal([]byte(resp.GetInfo()["info"]), &info); err != nil {
		t.Fatalf("container info: %v", err)
	}
	env := map[string]string{}
	for _, e := range info.Config.Envs {
		env[e.Key] = e.Value
	}
	return env
}
