package harness

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
)

// ReleaseName is the Helm release test/cluster and node-bench install the chart as.
const ReleaseName = "kruise-native"

// ChartDir is the repository's chart, as the README installs it.
func (c *Cluster) ChartDir() string {
	return filepath.Join(c.Layout.Root, "artifacts", "charts", "kruise-native")
}

// NodeValues are the chart values this node needs whatever the etcd mode: the node
// daemon on the node's containerd socket.
func (c *Cluster) NodeValues() []string {
	return []string{"--set", "nodeDaemon.runtimeSocket=" + c.Layout.ContainerdSocket()}
}

// WaitKruiseSystemReady waits until kruise-system has a running and Ready pod of
// kruise-apiserver, kruise-controller and kruise-node-daemon each, and no other pod of
// theirs that is not (terminating ones included: an older revision is still going);
// pods without app.kubernetes.io/name (the hooks' Job pods) are left out. It returns
// the pods' names.
func (c *Cluster) WaitKruiseSystemReady(ctx context.Context, timeout time.Duration) ([]string, error) {
	var names []string
	err := WaitFor(ctx, timeout, 500*time.Millisecond, "kruise-system pods ready", func(ctx context.Context) error {
		pods, err := c.Client.CoreV1().Pods(KruiseNamespace).List(ctx, metav1.ListOptions{})
		if err != nil {
			return err
		}
		names = nil
		seen := map[string]bool{}
		for i := range pods.Items {
			p := &pods.Items[i]
			app := p.Labels["app.kubernetes.io/name"]
			if app == "" {
				continue
			}
			if err := servingPod(p); err != nil {
				return fmt.Errorf("%s: %w", p.Name, err)
			}
			seen[app] = true
			names = append(names, p.Name)
		}
		for _, app := range []string{"kruise-apiserver", "kruise-controller", "kruise-node-daemon"} {
			if !seen[app] {
				return fmt.Errorf("no %s pod", app)
			}
		}
		return nil
	})
	return names, err
}

// servingPod: the pod is not terminating, runs with every container running and
// ready (RunningReady), and so is the pod (its Ready condition).
func servingPod(p *corev1.Pod) error {
	if p.DeletionTimestamp != nil {
		return fmt.Errorf("terminating")
	}
	if err := RunningReady(p); err != nil {
		return err
	}
	if !podutil.IsPodReady(p) {
		return fmt.Errorf("not Ready%s", PodWhy(p))
	}
	return nil
}

// RunningReady: the pod runs and every container of it runs and is ready; the error
// says what is not, with PodWhy.
func RunningReady(p *corev1.Pod) error {
	if p.Status.Phase != corev1.PodRunning {
		return fmt.Errorf("phase %s%s", p.Status.Phase, PodWhy(p))
	}
	for _, st := range p.Status.ContainerStatuses {
		if st.State.Running == nil || !st.Ready {
			return fmt.Errorf("container %s not running and ready%s", st.Name, PodWhy(p))
		}
	}
	return nil
}

// PodWhy summarizes the waiting or terminated reasons of a pod's containers and the
// messages of its conditions that are not true, for an error.
func PodWhy(p *corev1.Pod) string {
	var b strings.Builder
	for _, s := range append(append([]corev1.ContainerStatus{}, p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...) {
		switch {
		case s.State.Waiting != nil:
			fmt.Fprintf(&b, " %s: %s %s;", s.Name, s.State.Waiting.Reason, s.State.Waiting.Message)
		case s.State.Terminated != nil:
			fmt.Fprintf(&b, " %s: terminated %s (%d);", s.Name, s.State.Terminated.Reason, s.State.Terminated.ExitCode)
		}
	}
	for _, c := range p.Status.Conditions {
		if c.Status != corev1.ConditionTrue && c.Message != "" {
			fmt.Fprintf(&b, " %s: %s;", c.Type, c.Message)
		}
	}
	return b.String()
}
