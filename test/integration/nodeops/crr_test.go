package nodeops

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// runningPod creates a pod with containers app and sidecar on a kwok node and waits
// until both have a containerID (the node's runtime runs them).
func runningPod(t *testing.T, ns, name, node string, mutate ...func(*corev1.Pod)) *corev1.Pod {
	t.Helper()
	createPod(t, ns, name, node, mutate...)
	return waitContainersRunning(t, ns, name)
}

// createPod creates the pod of runningPod without waiting for it.
func createPod(t *testing.T, ns, name, node string, mutate ...func(*corev1.Pod)) {
	t.Helper()
	c := framework.Get(t)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: corev1.PodSpec{
			NodeName:                      node,
			TerminationGracePeriodSeconds: ptr.To[int64](5),
			Tolerations:                   []corev1.Toleration{{Key: "kwok.x-k8s.io/node", Operator: corev1.TolerationOpExists}},
			Containers: []corev1.Container{
				{Name: "app", Image: "nginx:alpine"},
				{Name: "sidecar", Image: "busybox:1.36"},
			},
		},
	}
	for _, m := range mutate {
		m(pod)
	}
	if _, err := c.Client.CoreV1().Pods(ns).Create(context.Background(), pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// waitContainersRunning waits until both containers of the pod run with a containerID.
func waitContainersRunning(t *testing.T, ns, name string) *corev1.Pod {
	t.Helper()
	c := framework.Get(t)
	ctx := context.Background()
	var got *corev1.Pod
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		var err error
		got, err = c.Client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		ids := 0
		for _, s := range got.Status.ContainerStatuses {
			if s.ContainerID != "" && s.State.Running != nil {
				ids++
			}
		}
		return ids == 2, nil
	})
	return got
}

// A request is tied to its pod by the server: labels, the pod's grace period and
// preStop hooks; requests for missing pods or containers are refused with the field.
func TestContainerRecreateRequestAdmission(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	kc := kruiseClient(t)
	ns := c.CreateNamespace(t)
	pod := runningPod(t, ns, "web", "kwok-node-0", func(p *corev1.Pod) {
		p.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{
			Exec: &corev1.ExecAction{Command: []string{"/bin/quit"}}}}
	})

	bad := []struct {
		name, pod, container, field string
	}{
		{"missing pod", "nope", "app", "spec.podName"},
		{"missing container", "web", "db", "spec.containers[0].name"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			crr := &v1alpha1.ContainerRecreateRequest{ObjectMeta: metav1.ObjectMeta{Name: "bad"},
				Spec: v1alpha1.ContainerRecreateRequestSpec{PodName: tc.pod,
					Containers: []v1alpha1.ContainerRecreateRequestContainer{{Name: tc.container}}}}
			_, err := kc.AppsV1alpha1().ContainerRecreateRequests(ns).Create(ctx, crr, metav1.CreateOptions{})
			if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), tc.field) {
				t.Fatalf("want 422 naming %s, got %v", tc.field, err)
			}
		})
	}

	crr := &v1alpha1.ContainerRecreateRequest{ObjectMeta: metav1.ObjectMeta{Name: "ok"},
		Spec: v1alpha1.ContainerRecreateRequestSpec{PodName: "web",
			Containers: []v1alpha1.ContainerRecreateRequestContainer{{Name: "app"}}}}
	got, err := kc.AppsV1alpha1().ContainerRecreateRequests(ns).Create(ctx, crr, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		v1alpha1.ContainerRecreateRequestPodNameKey:  "web",
		v1alpha1.ContainerRecreateRequestPodUIDKey:   string(pod.UID),
		v1alpha1.ContainerRecreateRequestNodeNameKey: "kwok-node-0",
	} {
		if got.Labels[k] != v {
			t.Errorf("label %s = %q, want %q", k, got.Labels[k], v)
		}
	}
	if g := got.Spec.Strategy.TerminationGracePeriodSeconds; g == nil || *g != 5 {
		t.Errorf("grace period = %v, want the pod's 5", g)
	}
	if h := got.Spec.Containers[0].PreStop; h == nil || h.Exec == nil || h.Exec.Command[0] != "/bin/quit" {
		t.Errorf("preStop = %+v, want the pod's exec hook", h)
	}
	if got.Spec.Strategy.FailurePolicy != v1alpha1.ContainerRecreateRequestFailurePolicyFail {
		t.Errorf("failurePolicy = %q, want the default Fail", got.Spec.Strategy.FailurePolicy)
	}

	out := kubectl(t, "get", "crr", "-n", ns)
	if h, want := headerFields(out), []string{"NAME", "PHASE", "POD", "NODE", "AGE"}; !slices.Equal(h, want) {
		t.Fatalf("kubectl get crr header = %v, want %v\n%s", h, want, out)
	}
	if r := row(out, "ok"); len(r) < 4 || r[2] != "web" || r[3] != "kwok-node-0" {
		t.Fatalf("want POD web NODE kwok-node-0, got\n%s", out)
	}

	// The spec is an order, not a desired state. (The node daemon records status
	// context meanwhile: retry on its conflicting writes, expect the refusal.)
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := kc.AppsV1alpha1().ContainerRecreateRequests(ns).Get(ctx, "ok", metav1.GetOptions{})
		if err != nil {
			return err
		}
		cur.Spec.Containers = append(cur.Spec.Containers, v1alpha1.ContainerRecreateRequestContainer{Name: "sidecar"})
		_, err = kc.AppsV1alpha1().ContainerRecreateRequests(ns).Update(ctx, cur, metav1.UpdateOptions{})
		return err
	})
	if !apierrors.IsInvalid(err) {
		t.Fatalf("changing the containers of a request: want 422, got %v", err)
	}
}

// The documented request recreates app and sidecar of a running pod in place: same pod,
// each restartCount +1, the request Completed and its active label dropped.
func TestContainerRecreateRequestExample(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	kc := kruiseClient(t)
	ns := c.CreateNamespace(t)
	before := runningPod(t, ns, "demo", "kwok-node-1")

	manifest := strings.NewReplacer("namespace: default", "namespace: "+ns, "POD_NAME", "demo").
		Replace(readExample(t, "containerrecreaterequest.yaml"))
	if _, err := c.KubectlStdin(t, manifest, "apply", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	var crr *v1alpha1.ContainerRecreateRequest
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		var err error
		crr, err = kc.AppsV1alpha1().ContainerRecreateRequests(ns).Get(ctx, "crr-demo", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		_, active := crr.Labels[v1alpha1.ContainerRecreateRequestActiveKey]
		return crr.Status.Phase == v1alpha1.ContainerRecreateRequestCompleted && !active, nil
	})
	for _, s := range crr.Status.ContainerRecreateStates {
		if s.Phase != v1alpha1.ContainerRecreateRequestSucceeded {
			t.Errorf("container %s: %s %s, want Succeeded", s.Name, s.Phase, s.Message)
		}
	}
	if _, ok := crr.Annotations[v1alpha1.ContainerRecreateRequestUnreadyAcquiredKey]; !ok {
		t.Errorf("unreadyGracePeriodSeconds is set, yet the pod was never marked unready first")
	}

	after, err := c.Client.CoreV1().Pods(ns).Get(ctx, "demo", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if after.UID != before.UID {
		t.Fatalf("pod was recreated (UID %s → %s), want containers recreated in place", before.UID, after.UID)
	}
	for i, s := range after.Status.ContainerStatuses {
		b := before.Status.ContainerStatuses[i]
		if s.RestartCount != b.RestartCount+1 || s.ContainerID == b.ContainerID {
			t.Errorf("container %s: restartCount %d → %d, id %s → %s; want +1 and a new container",
				s.Name, b.RestartCount, s.RestartCount, b.ContainerID, s.ContainerID)
		}
	}
}
