package podprobe

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kubeinformers "k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/kruise-native/kruise-native/internal/fakecri"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruisefake "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned/fake"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/criclient"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/handler"
)

// startContainer serves a fake runtime and runs one container in it, for pod ns/name.
func startContainer(t *testing.T, ctx context.Context, srv *fakecri.Server) (*criclient.Client, string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "podprobe") // unix socket paths are short
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	sock := filepath.Join(dir, "cri.sock")
	if err := srv.Start(sock); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	cri, err := criclient.New("unix://" + sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cri.Close() })
	if _, err := cri.Images.PullImage(ctx, &runtimeapi.PullImageRequest{Image: &runtimeapi.ImageSpec{Image: "busybox:1.36"}}); err != nil {
		t.Fatal(err)
	}
	sb, err := cri.Runtime.RunPodSandbox(ctx, &runtimeapi.RunPodSandboxRequest{Config: &runtimeapi.PodSandboxConfig{
		Metadata: &runtimeapi.PodSandboxMetadata{Name: "web", Namespace: "ns", Uid: "uid-web"}}})
	if err != nil {
		t.Fatal(err)
	}
	created, err := cri.Runtime.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{PodSandboxId: sb.PodSandboxId,
		Config: &runtimeapi.ContainerConfig{Metadata: &runtimeapi.ContainerMetadata{Name: "main"}, Image: &runtimeapi.ImageSpec{Image: "busybox:1.36"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cri.Runtime.StartContainer(ctx, &runtimeapi.StartContainerRequest{ContainerId: created.ContainerId}); err != nil {
		t.Fatal(err)
	}
	return cri, created.ContainerId
}

// The daemon runs an exec probe through CRI, writes the status when the state
// changes (after failureThreshold failures in a row) and not at the periods between.
func TestExecProbeWritesOnChangeOnly(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var exit, runs atomic.Int32
	srv := fakecri.NewServer()
	srv.SetExecHandler(func(context.Context, fakecri.Container, []string) (fakecri.ExecResult, error) {
		runs.Add(1)
		return fakecri.ExecResult{ExitCode: exit.Load(), Stdout: []byte("ok")}, nil
	})
	cri, containerID := startContainer(t, ctx, srv)

	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", UID: "uid-web"},
		Spec:       corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "main"}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{{
			Name: "main", ContainerID: "fakecri://" + containerID,
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}}}}},
	}
	npp := &v1alpha1.NodePodProbe{
		ObjectMeta: metav1.ObjectMeta{Name: "node-1", ResourceVersion: "1"},
		Spec: v1alpha1.NodePodProbeSpec{PodProbes: []v1alpha1.PodProbe{{Name: "web", Namespace: "ns", UID: "uid-web",
			Probes: []v1alpha1.ContainerProbe{{Name: "ppm#healthy", ContainerName: "main", Probe: v1alpha1.ContainerProbeSpec{Probe: corev1.Probe{
				ProbeHandler:  corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"/healthy.sh"}}},
				PeriodSeconds: 1, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 2,
			}}}}}}},
	}
	kube := kubefake.NewClientset(pod)
	kruise := kruisefake.NewSimpleClientset(npp) // no apply schema for our types in the fake
	var mu sync.Mutex
	var writes []v1alpha1.NodePodProbeStatus
	kruise.PrependReactor("update", "nodepodprobes", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() == "status" {
			npp := a.(k8stesting.UpdateAction).GetObject().(*v1alpha1.NodePodProbe)
			mu.Lock()
			writes = append(writes, *npp.Status.DeepCopy())
			mu.Unlock()
			// As the API server stores them: times in seconds (RFC 3339).
			for i := range npp.Status.PodProbeStatuses {
				for j := range npp.Status.PodProbeStatuses[i].ProbeStates {
					st := &npp.Status.PodProbeStatuses[i].ProbeStates[j]
					st.LastProbeTime, st.LastTransitionTime = st.LastProbeTime.Rfc3339Copy(), st.LastTransitionTime.Rfc3339Copy()
				}
			}
		}
		return false, nil, nil
	})
	written := func() []v1alpha1.NodePodProbeStatus {
		mu.Lock()
		defer mu.Unlock()
		return append([]v1alpha1.NodePodProbeStatus(nil), writes...)
	}
	kf := kubeinformers.NewSharedInformerFactory(kube, 0)
	rf := kruiseinformers.NewSharedInformerFactory(kruise, 0)
	c, err := New("node-1", kruise, rf.Apps().V1alpha1().NodePodProbes(), kf.Core().V1().Pods(), &handler.Runner{Runtime: cri.Runtime})
	if err != nil {
		t.Fatal(err)
	}
	kf.Start(ctx.Done())
	rf.Start(ctx.Done())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()

	waitWrites := func(n int, state v1alpha1.ProbeState) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			w := written()
			if len(w) == n {
				st := w[n-1].PodProbeStatuses
				if len(st) != 1 || len(st[0].ProbeStates) != 1 || st[0].ProbeStates[0].State != state {
					t.Fatalf("write %d: %+v, want one state %s", n, st, state)
				}
				return
			}
			if len(w) > n || time.Now().After(deadline) {
				t.Fatalf("status writes: %d, want %d", len(w), n)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitWrites(1, v1alpha1.ProbeSucceeded)
	exit.Store(1)
	waitWrites(2, v1alpha1.ProbeFailed) // after two failed runs
	if msg := written()[1].PodProbeStatuses[0].ProbeStates[0].Message; msg == "" {
		t.Errorf("a failure without a message")
	}
	// Three more runs, still failing: no write for any of them (the fourth run starts
	// after the third's result was handled).
	for want, deadline := runs.Load()+4, time.Now().Add(15*time.Second); runs.Load() < want; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("probe runs: %d, want %d", runs.Load(), want)
		}
	}
	if n := len(written()); n != 2 {
		t.Errorf("status writes after three unchanged runs: %d, want 2", n)
	}
	exit.Store(0)
	waitWrites(3, v1alpha1.ProbeSucceeded)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
