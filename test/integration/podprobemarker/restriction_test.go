package podprobemarker

import (
	"context"
	"path/filepath"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// daemonClient has the credentials of node's daemon (its ServiceAccount token bound to
// the Node), as the local stack wrote them.
func daemonClient(t *testing.T, node string) kruiseclient.Interface {
	t.Helper()
	path := filepath.Join(framework.Get(t).LocalDir, "kubeconfigs", "kruise-node-daemon-"+node+".kubeconfig")
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		t.Fatal(err)
	}
	return kruiseclient.NewForConfigOrDie(cfg)
}

// A node daemon may write the status of its own node's NodePodProbe and nothing else
// of NodePodProbes: not another node's status (which would move the marks of pods it
// does not run), not the spec, not a new one.
func TestNodeDaemonWritesOnlyItsOwnNodePodProbeStatus(t *testing.T) {
	ctx := context.Background()
	for _, node := range []string{"kwok-node-0", "kwok-node-1"} {
		_, err := kruise(t).AppsV1alpha1().NodePodProbes().Create(ctx,
			&v1alpha1.NodePodProbe{ObjectMeta: metav1.ObjectMeta{Name: node}}, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	own, other := daemonClient(t, "kwok-node-0"), "kwok-node-1"

	npp, err := own.AppsV1alpha1().NodePodProbes().Get(ctx, "kwok-node-0", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := own.AppsV1alpha1().NodePodProbes().UpdateStatus(ctx, npp, metav1.UpdateOptions{}); err != nil {
		t.Errorf("the daemon of kwok-node-0 writing its own status: %v", err)
	}
	theirs, err := own.AppsV1alpha1().NodePodProbes().Get(ctx, other, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	theirs.Status.PodProbeStatuses = []v1alpha1.PodProbeStatus{{Name: "p", Namespace: "default", UID: "u",
		ProbeStates: []v1alpha1.ContainerProbeState{{Name: "m#p", State: v1alpha1.ProbeSucceeded}}}}
	if _, err := own.AppsV1alpha1().NodePodProbes().UpdateStatus(ctx, theirs, metav1.UpdateOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("the daemon of kwok-node-0 writing kwok-node-1's status: %v, want 403", err)
	}
	npp, err = own.AppsV1alpha1().NodePodProbes().Get(ctx, "kwok-node-0", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	npp.Spec.PodProbes = append(npp.Spec.PodProbes, v1alpha1.PodProbe{Name: "p", Namespace: "default", UID: "u"})
	if _, err := own.AppsV1alpha1().NodePodProbes().Update(ctx, npp, metav1.UpdateOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("the daemon of kwok-node-0 writing its spec: %v, want 403", err)
	}
	if _, err := own.AppsV1alpha1().NodePodProbes().Create(ctx,
		&v1alpha1.NodePodProbe{ObjectMeta: metav1.ObjectMeta{Name: "kwok-node-9"}}, metav1.CreateOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("the daemon of kwok-node-0 creating a NodePodProbe: %v, want 403", err)
	}
}
