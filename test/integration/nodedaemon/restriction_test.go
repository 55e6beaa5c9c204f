package nodedaemon

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/retry"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A node daemon's credentials write its own node's objects only: another node's
// NodeImage status and pods are forbidden (403), its own are not.
func TestDaemonWritesOnlyItsOwnNode(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	const self, other = "kwok-node-0", "kwok-node-1"
	ensureNodeImage(t, self)
	ensureNodeImage(t, other)
	daemon := daemonKruiseClient(t, self)

	theirs, err := daemon.AppsV1alpha1().NodeImages().Get(ctx, other, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the daemon may read NodeImages: %v", err)
	}
	theirs.Status.Desired++
	if _, err := daemon.AppsV1alpha1().NodeImages().UpdateStatus(ctx, theirs, metav1.UpdateOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("daemon of %s updating the status of NodeImage %s: %v, want 403 Forbidden", self, other, err)
	}
	// Its own NodeImage: the status yes (written back unchanged), the spec no.
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		own, err := daemon.AppsV1alpha1().NodeImages().Get(ctx, self, metav1.GetOptions{})
		if err != nil {
			return err
		}
		_, err = daemon.AppsV1alpha1().NodeImages().UpdateStatus(ctx, own, metav1.UpdateOptions{})
		return err
	}); err != nil {
		t.Errorf("daemon of %s updating its own NodeImage status: %v", self, err)
	}
	own, err := daemon.AppsV1alpha1().NodeImages().Get(ctx, self, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	own.Labels = map[string]string{"touched-by": "daemon"}
	if _, err := daemon.AppsV1alpha1().NodeImages().Update(ctx, own, metav1.UpdateOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("daemon updating its NodeImage (not status): %v, want 403 Forbidden", err)
	}

	// Pods: the annotation the daemon reports (runtime-containers-meta) only on its node.
	cfg, err := clientcmd.BuildConfigFromFlags("", daemonKubeconfig(t, self))
	if err != nil {
		t.Fatal(err)
	}
	kube := kubernetes.NewForConfigOrDie(cfg)
	runPod(t, ns, "mine", self, nil, corev1.Container{Name: "app", Image: "nginx:1.25"})
	runPod(t, ns, "theirs", other, nil, corev1.Container{Name: "app", Image: "nginx:1.25"})
	patch := []byte(`{"metadata":{"annotations":{"kruise-native.io/test":"x"}}}`)
	if _, err := kube.CoreV1().Pods(ns).Patch(ctx, "theirs", types.MergePatchType, patch, metav1.PatchOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("daemon of %s patching a pod on %s: %v, want 403 Forbidden", self, other, err)
	}
	if _, err := kube.CoreV1().Pods(ns).Patch(ctx, "mine", types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Errorf("daemon of %s patching a pod on its node: %v", self, err)
	}
}

// Of a ContainerRecreateRequest on its own node, a daemon's credentials may write only
// the daemon's fields: ending the request, its message or its labels are
// kruise-controller's (403), the container states are its own.
func TestDaemonWritesOnlyItsFieldsOfARequest(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	runPod(t, ns, "web", crrNode, nil, corev1.Container{Name: "app", Image: "nginx:1.25"})
	// an hour of unready grace: the daemon of the node does not start it meanwhile
	crr := &v1alpha1.ContainerRecreateRequest{
		ObjectMeta: metav1.ObjectMeta{Name: "held", Namespace: ns},
		Spec: v1alpha1.ContainerRecreateRequestSpec{PodName: "web",
			Containers: []v1alpha1.ContainerRecreateRequestContainer{{Name: "app"}},
			Strategy:   &v1alpha1.ContainerRecreateRequestStrategy{UnreadyGracePeriodSeconds: ptrTo[int64](3600)}},
	}
	if _, err := kruise(t).AppsV1alpha1().ContainerRecreateRequests(ns).Create(ctx, crr, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	daemon := daemonKruiseClient(t, crrNode).AppsV1alpha1().ContainerRecreateRequests(ns)
	for _, tc := range []struct {
		name, patch, subresource string
		allowed                  bool
	}{
		{"completing it", `{"status":{"phase":"Completed"}}`, "status", false},
		{"failing it", `{"status":{"phase":"Failed"}}`, "status", false},
		{"its message", `{"status":{"message":"done"}}`, "status", false},
		{"its active label", `{"metadata":{"labels":{"crr.apps.kruise.io/active":null}}}`, "", false},
		{"container states", `{"status":{"containerRecreateStates":[{"name":"app","phase":"Pending"}]}}`, "status", true},
	} {
		var sub []string
		if tc.subresource != "" {
			sub = []string{tc.subresource}
		}
		_, err := daemon.Patch(ctx, "held", types.MergePatchType, []byte(tc.patch), metav1.PatchOptions{}, sub...)
		switch {
		case tc.allowed && err != nil:
			t.Errorf("daemon writing %s: %v", tc.name, err)
		case !tc.allowed && !apierrors.IsForbidden(err):
			t.Errorf("daemon writing %s: %v, want 403 Forbidden", tc.name, err)
		}
	}
}
