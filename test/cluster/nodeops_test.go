package cluster

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	appsv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/cluster/harness"
	"sigs.k8s.io/yaml"
)

// testContainerRecreateRequest: containerrecreaterequest.yaml against a pod with
// containers app and sidecar — the node daemon stops both real containers through
// containerd, kubelet starts them again: the request Completes, each container has a new
// ID and restartCount 1, the app answers with a new start time, the pod is the same.
func (s *suite) testContainerRecreateRequest(t *testing.T) {
	ctx := context.Background()
	s.push(t, "nginx:alpine", "busybox")
	s.apply(t, `apiVersion: v1
kind: Pod
metadata:
  name: crr-target
  namespace: default
spec:
  containers:
  - name: app
    image: nginx:alpine
  - name: sidecar
    image: busybox
    command: ["sleep", "999d"]
`)
	defer func() {
		must(t, ignoreNotFound(s.kruise.AppsV1alpha1().ContainerRecreateRequests("default").Delete(ctx, "crr-demo", metav1.DeleteOptions{})))
		must(t, ignoreNotFound(deletePodAndWait(ctx, s.c.Client, "default", "crr-target")))
	}()
	pod := s.waitPod(t, "crr-target", 2*time.Minute, "running and ready", harness.RunningReady)
	app0, err := appAt(ctx, pod.Status.PodIP)
	must(t, err)
	begin := time.Now()
	s.apply(t, example(t, "containerrecreaterequest.yaml"), "POD_NAME", "crr-target")
	var crr *appsv1alpha1.ContainerRecreateRequest
	must(t, harness.WaitFor(ctx, 2*time.Minute, 500*time.Millisecond, "ContainerRecreateRequest crr-demo Completed", func(ctx context.Context) error {
		crr, err = s.kruise.AppsV1alpha1().ContainerRecreateRequests("default").Get(ctx, "crr-demo", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if crr.Status.Phase != appsv1alpha1.ContainerRecreateRequestCompleted {
			return fmt.Errorf("phase %q: %s", crr.Status.Phase, crr.Status.Message)
		}
		return nil
	}))
	took := time.Since(begin)
	after := s.waitPod(t, "crr-target", time.Minute, "running and ready again", harness.RunningReady)
	for _, name := range []string{"app", "sidecar"} {
		b, a := containerStatus(pod, name), containerStatus(after, name)
		if a.RestartCount != b.RestartCount+1 || a.ContainerID == b.ContainerID {
			t.Errorf("%s: restartCount %d -> %d, container %s -> %s: not recreated", name, b.RestartCount, a.RestartCount, b.ContainerID, a.ContainerID)
		}
	}
	if after.UID != pod.UID || after.Status.PodIP != pod.Status.PodIP {
		t.Errorf("the pod changed: UID %s -> %s", pod.UID, after.UID)
	}
	app1, err := appAt(ctx, after.Status.PodIP)
	must(t, err)
	if app1.Started == app0.Started {
		t.Errorf("the app answers with the same start time %s: not restarted", app1.Started)
	}
	var states []string
	for _, st := range crr.Status.ContainerRecreateStates {
		states = append(states, st.Name+"="+string(st.Phase))
	}
	t.Logf("crr-demo Completed in %s (minStartedSeconds 10 included): %s; app started %s -> %s; restartCount 1 each",
		took.Round(100*time.Millisecond), strings.Join(states, " "), app0.Started, app1.Started)
	t.Logf("kubectl get crr:\n%s", s.kubectl(t, "get", "crr"))
}

// criHas reports whether containerd holds image ref (as CRI names it).
func (s *suite) criHas(ctx context.Context, ref string) (bool, error) {
	refs, err := s.c.ImageRefs(ctx)
	if err != nil {
		return false, err
	}
	return slices.Contains(refs, ref), nil
}

// testImagePullJob: imagepulljob.yaml on this node (the guide's node-1, node-2 replaced
// by its name), with its pull secret — the node daemon pulls nginx:1.9.1 from the
// loopback registry through containerd: the job counts 1 succeeded and containerd holds
// the image. Then nodeimage-patch.yaml merged into the node's NodeImage: ubuntu:latest
// is pulled the same way.
func (s *suite) testImagePullJob(t *testing.T) {
	ctx := context.Background()
	s.push(t, "nginx:1.9.1", "ubuntu:latest")
	// Neither image is on the node before (an earlier round of the suite pulled them).
	for _, ref := range []string{"docker.io/library/nginx:1.9.1", "docker.io/library/ubuntu:latest"} {
		_, err := s.c.CRI().Images.RemoveImage(ctx, &runtimeapi.RemoveImageRequest{Image: &runtimeapi.ImageSpec{Image: ref}})
		must(t, err)
		has, err := s.criHas(ctx, ref)
		must(t, err)
		if has {
			t.Fatalf("containerd holds %s before the test", ref)
		}
	}
	s.kubectl(t, "create", "secret", "docker-registry", "secret-name1", "--docker-server="+s.c.Registry.Host,
		"--docker-username=kruise", "--docker-password=unused")
	defer func() { _ = s.c.Client.CoreV1().Secrets("default").Delete(ctx, "secret-name1", metav1.DeleteOptions{}) }()
	begin := time.Now()
	s.apply(t, example(t, "imagepulljob.yaml"), "    - node-1\n    - node-2\n", "    - "+harness.NodeName+"\n")
	defer func() {
		must(t, ignoreNotFound(s.kruise.AppsV1alpha1().ImagePullJobs("default").Delete(ctx, "job-with-always", metav1.DeleteOptions{})))
	}()
	must(t, harness.WaitFor(ctx, 2*time.Minute, 500*time.Millisecond, "ImagePullJob job-with-always: 1 succeeded", func(ctx context.Context) error {
		j, err := s.kruise.AppsV1alpha1().ImagePullJobs("default").Get(ctx, "job-with-always", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if j.Status.Desired != 1 || j.Status.Succeeded != 1 {
			return fmt.Errorf("desired %d active %d succeeded %d failed %d: %s", j.Status.Desired, j.Status.Active, j.Status.Succeeded, j.Status.Failed, j.Status.Message)
		}
		return nil
	}))
	has, err := s.criHas(ctx, "docker.io/library/nginx:1.9.1")
	must(t, err)
	if !has {
		t.Fatal("the job succeeded but containerd does not hold docker.io/library/nginx:1.9.1")
	}
	t.Logf("ImagePullJob succeeded in %s; containerd holds docker.io/library/nginx:1.9.1", time.Since(begin).Round(100*time.Millisecond))
	t.Logf("kubectl get imagepulljobs:\n%s", s.kubectl(t, "get", "imagepulljobs"))

	begin = time.Now()
	s.kubectl(t, "patch", "nodeimage", harness.NodeName, "--type=merge", "-p", jsonOfYAML(t, example(t, "nodeimage-patch.yaml")))
	s.waitImagePulled(t, "ubuntu", "latest", 2*time.Minute)
	has, err = s.criHas(ctx, "docker.io/library/ubuntu:latest")
	must(t, err)
	if !has {
		t.Fatal("NodeImage reports ubuntu:latest pulled but containerd does not hold it")
	}
	t.Logf("NodeImage patch: ubuntu:latest pulled in %s; kubectl get nodeimages:\n%s", time.Since(begin).Round(100*time.Millisecond), s.kubectl(t, "get", "nodeimages"))
}

// waitImagePulled waits until the node's NodeImage reports image:tag Succeeded.
func (s *suite) waitImagePulled(t *testing.T, image, tag string, timeout time.Duration) {
	t.Helper()
	must(t, harness.WaitFor(context.Background(), timeout, 250*time.Millisecond, "NodeImage: "+image+":"+tag+" Succeeded", func(ctx context.Context) error {
		ni, err := s.kruise.AppsV1alpha1().NodeImages().Get(ctx, harness.NodeName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		for _, ts := range ni.Status.ImageStatuses[image].Tags {
			if ts.Tag == tag {
				if ts.Phase == appsv1alpha1.ImagePhaseSucceeded {
					return nil
				}
				return fmt.Errorf("phase %s: %s", ts.Phase, ts.Message)
			}
		}
		return fmt.Errorf("no status for %s:%s yet", image, tag)
	}))
}

// jsonOfYAML converts a YAML document (a patch) to JSON.
func jsonOfYAML(t *testing.T, y string) string {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(y))
	must(t, err)
	return string(j)
}
