package cluster

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// waitPod waits until cond holds for pod default/name.
func (s *suite) waitPod(t *testing.T, name string, timeout time.Duration, what string, cond func(*corev1.Pod) error) *corev1.Pod {
	t.Helper()
	var pod *corev1.Pod
	must(t, harness.WaitFor(context.Background(), timeout, 500*time.Millisecond, "pod "+name+": "+what, func(ctx context.Context) error {
		var err error
		pod, err = s.c.Client.CoreV1().Pods("default").Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		return cond(pod)
	}))
	return pod
}

func runningReady(p *corev1.Pod) error {
	if p.Status.Phase != corev1.PodRunning {
		return fmt.Errorf("phase %s%s", p.Status.Phase, podWhy(p))
	}
	for _, st := range p.Status.ContainerStatuses {
		if st.State.Running == nil || !st.Ready {
			return fmt.Errorf("container %s not running and ready%s", st.Name, podWhy(p))
		}
	}
	return nil
}

func findContainer(p *corev1.Pod, name string) *corev1.Container {
	for i := range p.Spec.Containers {
		if p.Spec.Containers[i].Name == name {
			return &p.Spec.Containers[i]
		}
	}
	return nil
}

// testSidecarSet: sidecarset.yaml applied whole — test-pod gets sidecar1 injected by the
// Pod webhook, called by kube-apiserver through the kruise-apiserver Service (env
// IS_INJECTED=true, the log-volume), and both containers run; patching the sidecar image
// upgrades sidecar1 in place: the same pod, a new sidecar1 container, the app container
// untouched.
func (s *suite) testSidecarSet(t *testing.T) {
	ctx := context.Background()
	s.push(t, "busybox", "busybox:1.36", "nginx:1.7.9")
	s.apply(t, example(t, "sidecarset.yaml"))
	defer func() {
		must(t, ignoreNotFound(deletePodAndWait(ctx, s.c.Client, "default", "test-pod")))
		must(t, ignoreNotFound(s.kruise.AppsV1alpha1().SidecarSets().Delete(ctx, "test-sidecarset", metav1.DeleteOptions{})))
	}()
	pod := s.waitPod(t, "test-pod", 2*time.Minute, "running and ready", runningReady)
	sc := findContainer(pod, "sidecar1")
	if sc == nil {
		t.Fatalf("test-pod has no sidecar1: containers %v", containerNames(pod))
	}
	env := map[string]string{}
	for _, e := range sc.Env {
		env[e.Name] = e.Value
	}
	var mounts []string
	for _, m := range sc.VolumeMounts {
		mounts = append(mounts, m.Name+":"+m.MountPath)
	}
	if env["IS_INJECTED"] != "true" || !strings.Contains(strings.Join(mounts, ","), "log-volume:/var/log") {
		t.Errorf("sidecar1: env %v, mounts %v; want IS_INJECTED=true and log-volume at /var/log", env, mounts)
	}
	t.Logf("test-pod: containers %v, both running; sidecar1 env IS_INJECTED=%s, mounts %v", containerNames(pod), env["IS_INJECTED"], mounts)
	must(t, harness.WaitFor(ctx, time.Minute, 500*time.Millisecond, "SidecarSet status 1/1/1", func(ctx context.Context) error {
		ss, err := s.kruise.AppsV1alpha1().SidecarSets().Get(ctx, "test-sidecarset", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if st := ss.Status; st.MatchedPods != 1 || st.UpdatedPods != 1 || st.ReadyPods != 1 {
			return fmt.Errorf("matched %d updated %d ready %d", st.MatchedPods, st.UpdatedPods, st.ReadyPods)
		}
		return nil
	}))
	t.Logf("kubectl get sidecarset:\n%s", s.kubectl(t, "get", "sidecarset", "test-sidecarset"))

	app0, side0 := containerStatus(pod, "app"), containerStatus(pod, "sidecar1")
	begin := time.Now()
	s.kubectl(t, "patch", "sidecarset", "test-sidecarset", "--type=json",
		"-p", `[{"op":"replace","path":"/spec/containers/0/image","value":"busybox:1.36"}]`)
	after := s.waitPod(t, "test-pod", 2*time.Minute, "sidecar1 upgraded in place", func(p *corev1.Pod) error {
		st := containerStatus(p, "sidecar1")
		if c := findContainer(p, "sidecar1"); c == nil || c.Image != "busybox:1.36" {
			return fmt.Errorf("sidecar1 spec image not yet busybox:1.36")
		}
		if !strings.HasSuffix(st.Image, "busybox:1.36") || st.State.Running == nil || st.ContainerID == side0.ContainerID {
			return fmt.Errorf("sidecar1 status image %s running %v", st.Image, st.State.Running != nil)
		}
		return runningReady(p)
	})
	app1, side1 := containerStatus(after, "app"), containerStatus(after, "sidecar1")
	if after.UID != pod.UID || app1.ContainerID != app0.ContainerID || app1.RestartCount != app0.RestartCount {
		t.Errorf("the upgrade touched more than sidecar1: UID %s -> %s, app container %s -> %s", pod.UID, after.UID, app0.ContainerID, app1.ContainerID)
	}
	t.Logf("sidecar1 upgraded in place in %s: image %s, restarts %d -> %d; app container unchanged",
		time.Since(begin).Round(100*time.Millisecond), side1.Image, side0.RestartCount, side1.RestartCount)
}

func containerNames(p *corev1.Pod) []string {
	var n []string
	for _, c := range p.Spec.Containers {
		n = append(n, c.Name)
	}
	return n
}
