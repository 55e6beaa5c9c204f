package cluster

import (
	"context"
	"encoding/json"
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
	pod := s.waitPod(t, "test-pod", 2*time.Minute, "running and ready", harness.RunningReady)
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
		return harness.RunningReady(p)
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

// testSidecarSetPolicies: sidecarset-policies.yaml — a pod labelled app=sample, created
// with --dry-run=server (the sidecar mounts a hostPath the test will not create on the
// host), gets the nginx sidecar before its own container (BeforeAppContainer), PROXY_IP
// transferred from container main, and the nginx.conf volume (as nginx-conf).
func (s *suite) testSidecarSetPolicies(t *testing.T) {
	ctx := context.Background()
	s.apply(t, example(t, "sidecarset-policies.yaml"))
	defer func() {
		must(t, ignoreNotFound(s.kruise.AppsV1alpha1().SidecarSets().Delete(ctx, "sidecarset", metav1.DeleteOptions{})))
	}()
	pod := `apiVersion: v1
kind: Pod
metadata:
  name: sample
  namespace: default
  labels:
    app: sample
spec:
  containers:
  - name: main
    image: nginx:alpine
    env:
    - name: PROXY_IP
      value: 10.0.0.7
`
	var got corev1.Pod
	must(t, harness.WaitFor(ctx, 30*time.Second, 500*time.Millisecond, "sidecar injected (dry run)", func(ctx context.Context) error {
		out, err := s.run(ctx, pod, "kubectl", "create", "--dry-run=server", "-o", "json", "-f", "-")
		if err != nil {
			return err
		}
		got = corev1.Pod{}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			return err
		}
		if len(got.Spec.Containers) != 2 {
			return fmt.Errorf("containers %v", containerNames(&got))
		}
		return nil
	}))
	names := containerNames(&got)
	nginx := findContainer(&got, "nginx")
	proxy := ""
	for _, e := range nginx.Env {
		if e.Name == "PROXY_IP" {
			proxy = e.Value
		}
	}
	var vol *corev1.Volume
	for i := range got.Spec.Volumes {
		// A pod volume's name is a DNS label: the SidecarSet's "nginx.conf" becomes
		// "nginx-conf" (pkg/apis/apps/pub, with a warning when the SidecarSet is written).
		if got.Spec.Volumes[i].Name == "nginx-conf" {
			vol = &got.Spec.Volumes[i]
		}
	}
	mounted := false
	for _, m := range nginx.VolumeMounts {
		mounted = mounted || m.Name == "nginx-conf" && m.MountPath == "/nginx/conf"
	}
	if names[0] != "nginx" || proxy != "10.0.0.7" || vol == nil || vol.HostPath == nil || vol.HostPath.Path != "/data/nginx/conf" || !mounted {
		b, _ := json.MarshalIndent(got.Spec, "", "  ")
		t.Fatalf("containers %v, PROXY_IP %q, volume %+v: want nginx first, PROXY_IP from main, the hostPath volume; pod spec:\n%s", names, proxy, vol, b)
	}
	t.Logf("dry-run pod: containers %v, nginx env PROXY_IP=%s (from main), volume nginx-conf (the SidecarSet's nginx.conf) hostPath %s mounted at /nginx/conf", names, proxy, vol.HostPath.Path)
}

// testSidecarSetHotUpgrade: sidecarset-hotupgrade.yaml — the pod gets two sidecar
// containers, sidecar-1 working (sidecarv1) and sidecar-2 idle (the empty image), both
// running with the postStart hook done; an image change to sidecarv2 upgrades the idle
// one in place and resets the other to the empty image, the pod unchanged.
func (s *suite) testSidecarSetHotUpgrade(t *testing.T) {
	ctx := context.Background()
	const repo = "openkruise/hotupgrade-sample:"
	s.push(t, repo+"sidecarv1", repo+"sidecarv2", repo+"empty", repo+"busybox")
	s.apply(t, example(t, "sidecarset-hotupgrade.yaml"))
	defer func() {
		s.deleteCloneSet(t, "busybox", "app=hotupgrade")
		must(t, ignoreNotFound(s.kruise.AppsV1alpha1().SidecarSets().Delete(ctx, "hotupgrade-sidecarset", metav1.DeleteOptions{})))
	}()
	s.waitCloneSet(t, "busybox", 2*time.Minute, "1 ready", readyCount(1))
	pod := s.onlyPod(t, "app=hotupgrade")
	images := func(p *corev1.Pod) map[string]string {
		m := map[string]string{}
		for _, c := range p.Spec.Containers {
			m[c.Name] = strings.TrimPrefix(c.Image, repo)
		}
		return m
	}
	before := images(&pod)
	if before["sidecar-1"] != "sidecarv1" || before["sidecar-2"] != "empty" || harness.RunningReady(&pod) != nil {
		t.Fatalf("pod containers %v (%v); want sidecar-1 sidecarv1 and sidecar-2 empty, running", before, harness.RunningReady(&pod))
	}
	t.Logf("pod %s: %v, all running", pod.Name, before)
	begin := time.Now()
	s.kubectl(t, "patch", "sidecarset", "hotupgrade-sidecarset", "--type=json",
		"-p", `[{"op":"replace","path":"/spec/containers/0/image","value":"`+repo+`sidecarv2"}]`)
	after := s.waitPod(t, pod.Name, 2*time.Minute, "hot upgraded", func(p *corev1.Pod) error {
		m := images(p)
		if m["sidecar-2"] != "sidecarv2" || m["sidecar-1"] != "empty" {
			return fmt.Errorf("containers %v", m)
		}
		for _, n := range []string{"sidecar-1", "sidecar-2"} {
			st := containerStatus(p, n)
			if !strings.HasSuffix(st.Image, findContainer(p, n).Image) || st.State.Running == nil {
				return fmt.Errorf("%s: status image %s running %v", n, st.Image, st.State.Running != nil)
			}
		}
		return harness.RunningReady(p)
	})
	if after.UID != pod.UID {
		t.Errorf("the pod was recreated")
	}
	t.Logf("hot upgrade in %s: %v (was %v), same pod", time.Since(begin).Round(100*time.Millisecond), images(after), before)
}
