package pub

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	policyv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A budget whose targetRef is a Deployment counts its replicas and covers the pods of
// its ReplicaSets: with 3 replicas and minAvailable 2, the first delete passes and the
// second, before the replacement is ready, gets 429 naming the budget.
func TestDeploymentTarget(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	labels := map[string]string{"app": "web"}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](3),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.27"}}},
			},
		},
	}
	if _, err := c.Client.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	manifest := `apiVersion: policy.kruise.io/v1beta1
kind: PodUnavailableBudget
metadata:
  name: ` + budgetName + `
spec:
  targetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minAvailable: 2
`
	if _, err := c.KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	waitBudget(t, ns, 2*time.Minute, func(s policyv1alpha1.PodUnavailableBudgetStatus) bool {
		return s.TotalReplicas == 3 && s.CurrentAvailable == 3 && s.DesiredAvailable == 2 && s.UnavailableAllowed == 1
	})
	pods := livePods(t, ns)
	if err := c.Client.CoreV1().Pods(ns).Delete(ctx, pods[0].Name, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("first delete: %v", err)
	}
	budgetRefusal(t, "the second delete", c.Client.CoreV1().Pods(ns).Delete(ctx, pods[1].Name, metav1.DeleteOptions{}))
}
