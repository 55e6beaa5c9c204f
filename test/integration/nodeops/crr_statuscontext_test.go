package nodeops

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// As in OpenKruise, the server fills in each container's statusContext (the
// containerID and restartCount the pod reports) when the request is created: the
// create's answer has it, before any node daemon acted, and the recreation then
// replaces exactly that container.
func TestContainerRecreateRequestStatusContextAtCreate(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	kc := kruiseClient(t)
	ns := c.CreateNamespace(t)
	pod := runningPod(t, ns, "web", "kwok-node-1")
	want := map[string]v1alpha1.ContainerRecreateRequestContainerContext{}
	for _, s := range pod.Status.ContainerStatuses {
		want[s.Name] = v1alpha1.ContainerRecreateRequestContainerContext{ContainerID: s.ContainerID, RestartCount: s.RestartCount}
	}

	crr := &v1alpha1.ContainerRecreateRequest{ObjectMeta: metav1.ObjectMeta{Name: "restart-both"},
		Spec: v1alpha1.ContainerRecreateRequestSpec{PodName: "web",
			Containers: []v1alpha1.ContainerRecreateRequestContainer{{Name: "app"}, {Name: "sidecar"}}}}
	created, err := kc.AppsV1alpha1().ContainerRecreateRequests(ns).Create(ctx, crr, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ctr := range created.Spec.Containers {
		if ctr.StatusContext == nil || *ctr.StatusContext != want[ctr.Name] {
			t.Errorf("create's answer: container %s statusContext = %+v, want %+v", ctr.Name, ctr.StatusContext, want[ctr.Name])
		}
	}

	// The recreation completes and the pod runs other containers than those recorded.
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		got, err := kc.AppsV1alpha1().ContainerRecreateRequests(ns).Get(ctx, "restart-both", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if got.Status.Phase == v1alpha1.ContainerRecreateRequestFailed {
			t.Fatalf("request failed: %s", got.Status.Message)
		}
		return got.Status.Phase == v1alpha1.ContainerRecreateRequestCompleted, nil
	})
	after := waitContainersRunning(t, ns, "web")
	for _, s := range after.Status.ContainerStatuses {
		if s.ContainerID == want[s.Name].ContainerID {
			t.Errorf("container %s still runs as %s after the recreation", s.Name, s.ContainerID)
		}
	}
}
