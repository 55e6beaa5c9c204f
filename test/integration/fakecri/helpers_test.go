package fakecri

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	internalapi "k8s.io/cri-api/pkg/apis"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	cri "k8s.io/cri-client/pkg"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"

	fakeruntime "github.com/kruise-native/kruise-native/internal/fakecri"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// simNode is a kwok node of the test's own, with a fake runtime and a kubelet simulator
// running in the test, and a CRI client connected to the runtime's socket.
//
// The node is not one of the stack's kwok-node-N: when kruise-node-daemon-dev is built,
// the stack runs one per kwok-node-N and each simulates its node's kubelet itself; two
// simulators of one node would both write its pods' container statuses.
type simNode struct {
	name    string
	runtime *fakeruntime.Server
	cri     internalapi.RuntimeService
}

// startSimNode creates a kwok-managed node (kwok makes it Ready and runs the pods bound
// to it), serves a fake runtime on a socket and runs the simulator for the node until
// the test ends, then removes the node.
func startSimNode(t *testing.T) *simNode {
	t.Helper()
	c := framework.Get(t)
	name := "kwok-fakecri-" + strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-"))
	if len(name) > 63 {
		name = name[:63]
	}
	node := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Annotations: map[string]string{"kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0"},
			Labels:      map[string]string{"type": "kwok-fakecri", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux"},
		},
		// Only pods bound by name (the test's) run here; the scheduler keeps away.
		Spec: corev1.NodeSpec{Unschedulable: true},
	}
	if _, err := c.Client.CoreV1().Nodes().Create(context.Background(), node, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create node: %v", err)
	}
	t.Cleanup(func() {
		err := c.Client.CoreV1().Nodes().Delete(context.Background(), name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("delete node %s: %v", name, err)
		}
	})

	// Unix socket paths are limited to 108 bytes: a short directory, not t.TempDir().
	dir, err := os.MkdirTemp("", "fakecri-it")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	socket := filepath.Join(dir, "cri.sock")

	logger := ktesting.NewLogger(t, ktesting.NewConfig(ktesting.Verbosity(2)))
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logger))
	srv := fakeruntime.NewServer()
	done := make(chan error, 1)
	go func() { done <- fakeruntime.RunServerForNode(ctx, srv, socket, name, c.Client) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("RunServerForNode: %v", err)
		}
	})

	var client internalapi.RuntimeService
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		if srv.Endpoint() == "" {
			return false, fmt.Errorf("runtime not serving yet")
		}
		var err error
		client, err = cri.NewRemoteRuntimeService(ctx, srv.Endpoint(), 10*time.Second, nil, true)
		return err == nil, err
	})
	t.Cleanup(func() { _ = client.Close(context.Background()) })
	return &simNode{name: name, runtime: srv, cri: client}
}

// createPod creates a pod bound to the node whose container "app" takes VERSION from
// the annotation demo/version.
func (n *simNode) createPod(t *testing.T, ns, name, version string) *corev1.Pod {
	t.Helper()
	grace := int64(5)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Annotations: map[string]string{"demo/version": version}},
		Spec: corev1.PodSpec{
			NodeName:                      n.name,
			TerminationGracePeriodSeconds: &grace,
			Tolerations:                   []corev1.Toleration{{Operator: corev1.TolerationOpExists}},
			Containers: []corev1.Container{{
				Name:  "app",
				Image: "nginx:1.9.1",
				Env: []corev1.EnvVar{
					{Name: "VERSION", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.annotations['demo/version']"}}},
					{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
				},
			}},
		},
	}
	created, err := framework.Get(t).Client.CoreV1().Pods(ns).Create(context.Background(), pod, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return created
}

// waitRunningContainer waits until the pod's status shows container app running in
// a fakecri container other than notID with the given restart count, and returns the
// runtime container ID.
func waitRunningContainer(t *testing.T, ns, name, notID string, restartCount int32) (string, *corev1.Pod) {
	t.Helper()
	var id string
	var pod *corev1.Pod
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		var err error
		pod, err = framework.Get(t).Client.CoreV1().Pods(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		for _, cs := range pod.Status.ContainerStatuses {
			if cs.Name != "app" {
				continue
			}
			got, ok := strings.CutPrefix(cs.ContainerID, fakeruntime.ContainerIDPrefix)
			if !ok || got == notID || cs.RestartCount != restartCount || cs.State.Running == nil || !cs.Ready {
				return false, fmt.Errorf("status of app: containerID %q restartCount %d running %v ready %v (want a new fakecri container, restartCount %d)",
					cs.ContainerID, cs.RestartCount, cs.State.Running != nil, cs.Ready, restartCount)
			}
			id = got
			return true, nil
		}
		return false, fmt.Errorf("no status for app yet (phase %s)", pod.Status.Phase)
	})
	return id, pod
}

// containerEnv reads a container's env the way the node daemon does: from the verbose
// ContainerStatus info, in containerd's shape.
func (n *simNode) containerEnv(t *testing.T, id string) map[string]string {
	t.Helper()
	resp, err := n.cri.ContainerStatus(context.Background(), id, true)
	if err != nil {
		t.Fatalf("ContainerStatus(%s): %v", id, err)
	}
	var info struct {
		Config struct {
			Envs []struct {
				Key   string `json:"key"`
				Value string `json:"value"`
			} `json:"envs"`
		} `json:"config"`
	}
	if err := json.Unmarshal([]byte(resp.Info["info"]), &info); err != nil {
		t.Fatalf("verbose info of %s: %v", id, err)
	}
	env := map[string]string{}
	for _, e := range info.Config.Envs {
		env[e.Key] = e.Value
	}
	return env
}

// sandboxesOf lists the pod's sandboxes through CRI, by kubelet's pod UID label.
func (n *simNode) sandboxesOf(t *testing.T, uid string) []*runtimeapi.PodSandbox {
	t.Helper()
	list, err := n.cri.ListPodSandbox(context.Background(), &runtimeapi.PodSandboxFilter{
		LabelSelector: map[string]string{fakeruntime.LabelPodUID: uid},
	})
	if err != nil {
		t.Fatalf("ListPodSandbox: %v", err)
	}
	return list
}
