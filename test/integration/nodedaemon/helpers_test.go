package nodedaemon

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/clientcmd"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func kruise(t *testing.T) kruiseclient.Interface {
	return kruiseclient.NewForConfigOrDie(framework.Get(t).Config)
}

// daemonKruiseClient is a client with the credentials of node's daemon (its
// ServiceAccount token bound to the Node), as hack/local-up.sh wrote them.
func daemonKubeconfig(t *testing.T, node string) string {
	return filepath.Join(framework.Get(t).LocalDir, "kubeconfigs", "kruise-node-daemon-"+node+".kubeconfig")
}

func daemonKruiseClient(t *testing.T, node string) kruiseclient.Interface {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", daemonKubeconfig(t, node))
	if err != nil {
		t.Fatal(err)
	}
	return kruiseclient.NewForConfigOrDie(cfg)
}

// ensureNodeImage returns node's NodeImage, creating it when kruise-controller has not
// (yet): the daemon's tests do not depend on the controller.
func ensureNodeImage(t *testing.T, node string) *v1alpha1.NodeImage {
	t.Helper()
	var ni *v1alpha1.NodeImage
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		var err error
		ni, err = kruise(t).AppsV1alpha1().NodeImages().Get(context.Background(), node, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			ni, err = kruise(t).AppsV1alpha1().NodeImages().Create(context.Background(),
				&v1alpha1.NodeImage{ObjectMeta: metav1.ObjectMeta{Name: node}}, metav1.CreateOptions{})
			if apierrors.IsAlreadyExists(err) {
				return false, nil
			}
		}
		return err == nil, err
	})
	return ni
}

// patchImages merges images into node's NodeImage spec with `kubectl patch
// --type=merge` and removes them when the test ends.
func patchImages(t *testing.T, node string, images map[string]any) {
	t.Helper()
	c := framework.Get(t)
	ensureNodeImage(t, node)
	patch, _ := json.Marshal(map[string]any{"spec": map[string]any{"images": images}})
	if _, _, err := c.Kubectl(t, "patch", "nodeimage", node, "--type=merge", "-p", string(patch)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		remove := map[string]any{}
		for name := range images {
			remove[name] = nil
		}
		patch, _ := json.Marshal(map[string]any{"spec": map[string]any{"images": remove}})
		if _, _, err := c.Kubectl(t, "patch", "nodeimage", node, "--type=merge", "-p", string(patch)); err != nil {
			t.Errorf("removing the test's images: %v", err)
		}
	})
}

// tagStatus returns the status of image:tag in node's NodeImage, or nil.
func tagStatus(ni *v1alpha1.NodeImage, image, tag string) *v1alpha1.ImageTagStatus {
	for _, st := range ni.Status.ImageStatuses[image].Tags {
		if st.Tag == tag {
			return &st
		}
	}
	return nil
}

// waitTag waits until the status of image:tag on node satisfies cond.
func waitTag(t *testing.T, node, image, tag string, timeout time.Duration, cond func(*v1alpha1.ImageTagStatus) bool) (*v1alpha1.NodeImage, *v1alpha1.ImageTagStatus) {
	t.Helper()
	var (
		ni *v1alpha1.NodeImage
		st *v1alpha1.ImageTagStatus
	)
	framework.WaitFor(t, timeout, func() (bool, error) {
		var err error
		ni, err = kruise(t).AppsV1alpha1().NodeImages().Get(context.Background(), node, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		st = tagStatus(ni, image, tag)
		return st != nil && cond(st), nil
	})
	return ni, st
}

// runPod creates a pod bound to node with the given containers and waits until the
// node's fake kubelet reports every container running with a containerID.
func runPod(t *testing.T, ns, name, node string, labels map[string]string, containers ...corev1.Container) *corev1.Pod {
	t.Helper()
	c := framework.Get(t)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: labels},
		Spec: corev1.PodSpec{NodeName: node, Containers: containers,
			TerminationGracePeriodSeconds: ptrTo[int64](5)},
	}
	if _, err := c.Client.CoreV1().Pods(ns).Create(context.Background(), pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return waitPod(t, ns, name, time.Minute, func(p *corev1.Pod) bool {
		if p.Status.Phase != corev1.PodRunning || len(p.Status.ContainerStatuses) != len(containers) {
			return false
		}
		for _, cs := range p.Status.ContainerStatuses {
			if !strings.HasPrefix(cs.ContainerID, "fakecri://") || cs.State.Running == nil {
				return false
			}
		}
		return true
	})
}

func waitPod(t *testing.T, ns, name string, timeout time.Duration, cond func(*corev1.Pod) bool) *corev1.Pod {
	t.Helper()
	var pod *corev1.Pod
	framework.WaitFor(t, timeout, func() (bool, error) {
		var err error
		pod, err = framework.Get(t).Client.CoreV1().Pods(ns).Get(context.Background(), name, metav1.GetOptions{})
		return err == nil && cond(pod), err
	})
	return pod
}

func containerStatus(pod *corev1.Pod, name string) corev1.ContainerStatus {
	for _, s := range pod.Status.ContainerStatuses {
		if s.Name == name {
			return s
		}
	}
	return corev1.ContainerStatus{}
}

// runtimeClient connects to the fake CRI runtime node's daemon serves on
// LOCAL_DIR/cri/<node>.sock, as crictl would on a real node.
func runtimeClient(t *testing.T, node string) (runtimeapi.RuntimeServiceClient, runtimeapi.ImageServiceClient) {
	t.Helper()
	socket := filepath.Join(framework.Get(t).LocalDir, "cri", node+".sock")
	conn, err := grpc.NewClient("unix://"+socket, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return runtimeapi.NewRuntimeServiceClient(conn), runtimeapi.NewImageServiceClient(conn)
}

// runtimeEnv reads the env a container runs with from its node's runtime.
func runtimeEnv(t *testing.T, node, containerID string) map[string]string {
	t.Helper()
	rt, _ := runtimeClient(t, node)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := rt.ContainerStatus(ctx, &runtimeapi.ContainerStatusRequest{
		ContainerId: strings.TrimPrefix(containerID, "fakecri://"), Verbose: true})
	if err != nil {
		t.Fatalf("ContainerStatus %s on %s: %v", containerID, node, err)
	}
	var info struct {
		Config struct {
			Envs []struct {
				Key   string `json:"key"`
				Value string `json:"value"`
			} `json:"envs"`
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

// daemonWrites returns the PUT and PATCH requests node's daemon process made so far
// (client-go's rest_client_requests_total; the fake kubelet in the same process only
// patches, the daemon's own status and context writes are PUTs).
func daemonWrites(t *testing.T, node string) (puts, patches float64) {
	t.Helper()
	for labels, v := range framework.Get(t).Metrics(t, "kruise-node-daemon-"+node, "rest_client_requests_total") {
		switch {
		case strings.Contains(labels, `method="PUT"`):
			puts += v
		case strings.Contains(labels, `method="PATCH"`):
			patches += v
		}
	}
	return puts, patches
}

// recreateRequestWrites returns node's daemon's writes of ContainerRecreateRequests so
// far, by result (written, refused, failed).
func recreateRequestWrites(t *testing.T, node string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for labels, v := range framework.Get(t).Metrics(t, "kruise-node-daemon-"+node, "kruise_node_daemon_recreate_request_writes_total") {
		for _, result := range []string{"written", "refused", "failed"} {
			if strings.Contains(labels, `result="`+result+`"`) {
				out[result] += v
			}
		}
	}
	return out
}

// managersOf returns the field managers that own field (a path of managedFields keys,
// e.g. "f:status", "f:completionTime") of obj.
func managersOf(obj metav1.Object, field ...string) []string {
	var out []string
	for _, e := range obj.GetManagedFields() {
		if e.FieldsV1 == nil {
			continue
		}
		var node map[string]any
		if json.Unmarshal(e.FieldsV1.Raw, &node) != nil {
			continue
		}
		owned := true
		for _, f := range field {
			next, ok := node[f].(map[string]any)
			if !ok {
				owned = false
				break
			}
			node = next
		}
		if owned {
			out = append(out, e.Manager)
		}
	}
	return out
}

func mergePatchPod(t *testing.T, ns, name string, patch any) {
	t.Helper()
	b, err := json.Marshal(patch)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := framework.Get(t).Client.CoreV1().Pods(ns).Patch(context.Background(), name, types.MergePatchType, b, metav1.PatchOptions{}); err != nil {
		t.Fatalf("patch pod %s: %v", name, err)
	}
}

func ptrTo[T any](v T) *T { return &v }

func describe(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return fmt.Sprint(string(b))
}
