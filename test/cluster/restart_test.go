package cluster

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// daemonRecoveryTarget is how soon after containerd is back the node daemon must work
// again.
const daemonRecoveryTarget = 10 * time.Second

// nodeDaemonPod returns the node daemon's pod.
func (s *suite) nodeDaemonPod(t *testing.T) *corev1.Pod {
	t.Helper()
	pods, err := podsOf(context.Background(), s.c.Client, kruiseNamespace, "app.kubernetes.io/name=kruise-node-daemon")
	must(t, err)
	for _, p := range pods {
		if p.DeletionTimestamp == nil {
			return &p
		}
	}
	t.Fatal("no kruise-node-daemon pod")
	return nil
}

// testContainerdRestart: containerd stops and starts again (its containers keep
// running); the node daemon, which mounts the socket's directory, answers its health
// check (a CRI Version through its connection) and pulls an image for a NodeImage
// within daemonRecoveryTarget of containerd answering again, without being restarted.
func (s *suite) testContainerdRestart(t *testing.T) {
	ctx := context.Background()
	s.push(t, "busybox:after-restart")
	daemon := s.nodeDaemonPod(t)
	restarts0 := containerStatus(daemon, "kruise-node-daemon").RestartCount
	health := "http://" + daemon.Status.PodIP + ":10221/healthz"
	hc := &http.Client{Timeout: time.Second}
	must(t, harness.WaitFor(ctx, 30*time.Second, 200*time.Millisecond, "node daemon healthy before", func(ctx context.Context) error {
		return httpOK(ctx, hc, health)
	}))

	took, err := s.c.RestartContainerd(ctx)
	must(t, err)
	back := time.Now()
	t.Logf("containerd stopped and answering CRI again in %s", took.Round(10*time.Millisecond))

	must(t, harness.WaitFor(ctx, time.Minute, 100*time.Millisecond, "node daemon healthz after the restart", func(ctx context.Context) error {
		return httpOK(ctx, hc, health)
	}))
	healthy := time.Since(back)
	s.kubectl(t, "patch", "nodeimage", harness.NodeName, "--type=merge",
		"-p", `{"spec":{"images":{"busybox":{"tags":[{"tag":"after-restart"}]}}}}`)
	s.waitImagePulled(t, "busybox", "after-restart", time.Minute)
	pulled := time.Since(back)
	has, err := s.criHas(ctx, "docker.io/library/busybox:after-restart")
	must(t, err)
	if !has {
		t.Fatal("NodeImage reports busybox:after-restart pulled but containerd does not hold it")
	}
	after := s.nodeDaemonPod(t)
	restarts1 := containerStatus(after, "kruise-node-daemon").RestartCount
	t.Logf("NODE DAEMON RECOVERY: healthz 200 %s and an image pulled through it %s after containerd answered again (target %s); daemon restarts %d -> %d",
		healthy.Round(10*time.Millisecond), pulled.Round(10*time.Millisecond), daemonRecoveryTarget, restarts0, restarts1)
	if pulled > daemonRecoveryTarget {
		t.Errorf("the node daemon took %s to work again, more than %s", pulled, daemonRecoveryTarget)
	}
	if after.UID != daemon.UID || restarts1 != restarts0 {
		t.Errorf("the node daemon was restarted (pod %s -> %s, restarts %d -> %d): it did not recover by itself", daemon.UID, after.UID, restarts0, restarts1)
	}
	// The workloads' containers outlived containerd's restart.
	_, err = s.waitKruiseSystemReady(ctx, time.Minute)
	must(t, err)
}

func httpOK(ctx context.Context, c *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, resp.Status)
	}
	return nil
}
