package nodeops

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// Every ready node has a NodeImage of its name; a node that joins gets one once it is
// ready, and loses it when it leaves.
func TestNodeImagePerNode(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	kc := kruiseClient(t)

	framework.WaitFor(t, time.Minute, func() (bool, error) {
		for i := 0; i < c.Nodes; i++ {
			if _, err := kc.AppsV1alpha1().NodeImages().Get(ctx, nodeName(i), metav1.GetOptions{}); err != nil {
				return false, client404(err)
			}
		}
		return true, nil
	})
	out := kubectl(t, "get", "nodeimages")
	if got, want := headerFields(out), []string{"NAME", "DESIRED", "PULLING", "SUCCEED", "FAILED", "AGE"}; !slices.Equal(got, want) {
		t.Fatalf("kubectl get nodeimages header = %v, want %v\n%s", got, want, out)
	}

	// A kwok node joins: kwok makes it ready, the controller gives it a NodeImage.
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "kwok-joiner",
		Annotations: map[string]string{"kwok.x-k8s.io/node": "fake"},
		Labels:      map[string]string{"type": "kwok", "kubernetes.io/hostname": "kwok-joiner"}},
		Spec: corev1.NodeSpec{Taints: []corev1.Taint{{Key: "kwok.x-k8s.io/node", Value: "fake", Effect: corev1.TaintEffectNoSchedule}}}}
	if _, err := c.Client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Client.CoreV1().Nodes().Delete(context.Background(), node.Name, metav1.DeleteOptions{}) })
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, err := kc.AppsV1alpha1().NodeImages().Get(ctx, node.Name, metav1.GetOptions{})
		return err == nil, client404(err)
	})

	if err := c.Client.CoreV1().Nodes().Delete(ctx, node.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, err := kc.AppsV1alpha1().NodeImages().Get(ctx, node.Name, metav1.GetOptions{})
		return apierrors.IsNotFound(err), client404(err)
	})
}

func nodeName(i int) string { return fmt.Sprintf("kwok-node-%d", i) }

// client404 lets a poll go on while an object is missing and stops it on other errors.
func client404(err error) error {
	if err == nil || apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
