package fakecri

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// A job pod's main container that kwok reports terminated (pod-job-main-complete.yaml)
// exits in the runtime too, with kwok's exit code, while the sidecar runs on; once
// someone ends the pod (OpenKruise's SidecarTerminator writes phase Succeeded), the
// simulator stops the sidecar, reports it terminated and removes the sandbox, as the
// kubelet does for a pod the API shows terminal.
func TestKubeletSimFollowsKwokExitAndStopsTerminalPods(t *testing.T) {
	e := startSim(t)
	ctx := context.Background()
	never := kwokPod("job", func(p *corev1.Pod) { p.Spec.RestartPolicy = corev1.RestartPolicyNever })
	if _, err := e.client.CoreV1().Pods("ns").Create(ctx, never, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	app := e.waitContainerID(t, "job", "app", "", 0)
	sidecar := e.waitContainerID(t, "job", "sidecar", "", 0)

	// kwok: the main container ran to its end (its containerID kept).
	pod := e.pod(t, "job")
	cs := statusOf(pod, "app")
	cs.Ready = false
	cs.State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 0, Reason: "Completed"}}
	if _, err := e.client.CoreV1().Pods("ns").UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the main container to exit in the runtime", func() (bool, string) {
		c, _ := e.srv.Container(app.ID)
		return c.State == runtimeapi.ContainerState_CONTAINER_EXITED && c.ExitCode == 0, fmt.Sprintf("%+v", c)
	})
	if c, _ := e.srv.Container(sidecar.ID); c.State != runtimeapi.ContainerState_CONTAINER_RUNNING {
		t.Fatalf("sidecar is %v, want running", c.State)
	}
	if got := statusOf(e.pod(t, "job"), "app"); got.State.Terminated == nil || got.ContainerID != ContainerIDPrefix+app.ID {
		t.Fatalf("main container status = %+v, want terminated %s", got, app.ID)
	}

	// The pod is ended by someone else than the kubelet.
	pod = e.pod(t, "job")
	pod.Status.Phase = corev1.PodSucceeded
	if _, err := e.client.CoreV1().Pods("ns").UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the sidecar reported terminated and the sandbox removed", func() (bool, string) {
		p := e.pod(t, "job")
		cs := statusOf(p, "sidecar")
		return cs.State.Terminated != nil && !cs.Ready && cs.ContainerID == ContainerIDPrefix+sidecar.ID &&
			len(e.srv.Sandboxes()) == 0, fmt.Sprintf("phase %s, sidecar %+v, sandboxes %d", p.Status.Phase, cs, len(e.srv.Sandboxes()))
	})
	if p := e.pod(t, "job"); p.Status.Phase != corev1.PodSucceeded {
		t.Errorf("phase = %s, want Succeeded kept", p.Status.Phase)
	}
}
