package pub

import (
	"context"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	policyv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// holdFinalizer keeps a deleted ReplicaSet in the API, being deleted, for as long as
// the test needs it so.
const holdFinalizer = "test.kruise-native.io/hold"

// A budget with maxUnavailable 0 over a Deployment's pods does not keep them when the
// Deployment is deleted: with kubectl's background propagation the garbage collector
// deletes the ReplicaSet, then its pods, and its deletes pass the budget. A pod whose
// owner is being deleted may be deleted by anyone; a direct delete of a covered pod
// whose owner stays is still refused with 429.
func TestDeletedDeploymentsPodsGo(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	template := func(app string) corev1.PodTemplateSpec {
		return corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app, "tier": "guarded"}},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.27"}}},
		}
	}
	for app, replicas := range map[string]int32{"web": 2, "keep": 1} {
		d := &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: app},
			Spec: appsv1.DeploymentSpec{Replicas: ptr.To(replicas),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}, Template: template(app)},
		}
		if _, err := c.Client.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	held := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "held", Finalizers: []string{holdFinalizer}},
		Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "held"}}, Template: template("held")},
	}
	if _, err := c.Client.AppsV1().ReplicaSets(ns).Create(ctx, held, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // let the namespace go
		patch := []byte(`{"metadata":{"finalizers":null}}`)
		_, _ = c.Client.AppsV1().ReplicaSets(ns).Patch(context.Background(), "held", types.MergePatchType, patch, metav1.PatchOptions{})
	})
	manifest := `apiVersion: policy.kruise.io/v1beta1
kind: PodUnavailableBudget
metadata:
  name: ` + budgetName + `
spec:
  selector: {matchLabels: {tier: guarded}}
  maxUnavailable: 0
`
	if _, err := c.KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	waitBudget(t, ns, 2*time.Minute, func(s policyv1alpha1.PodUnavailableBudgetStatus) bool {
		return s.TotalReplicas == 4 && s.CurrentAvailable == 4 && s.UnavailableAllowed == 0
	})
	podsOf := func(app string) []corev1.Pod {
		var out []corev1.Pod
		for _, p := range livePods(t, ns) {
			if p.Labels["app"] == app {
				out = append(out, p)
			}
		}
		return out
	}
	web := podsOf("web")
	if len(web) != 2 {
		t.Fatalf("%d pods of web, want 2", len(web))
	}
	budgetRefusal(t, "a direct delete of a pod of web", c.Client.CoreV1().Pods(ns).Delete(ctx, web[0].Name, metav1.DeleteOptions{}))

	// kubectl delete deployment: background propagation, as kubectl's default.
	if _, stderr, err := c.Kubectl(t, "delete", "deployment", "-n", ns, "web"); err != nil {
		t.Fatalf("kubectl delete deployment: %v: %s", err, stderr)
	}
	start := time.Now()
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		list, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
		return err == nil && len(list.Items) == 0, err
	})
	t.Logf("the deleted Deployment's pods were gone %v after the delete", time.Since(start).Round(100*time.Millisecond))

	// A pod whose ReplicaSet is being deleted (held in the API by a finalizer): anyone's
	// delete passes.
	heldPods := podsOf("held")
	if len(heldPods) != 1 {
		t.Fatalf("%d pods of held, want 1", len(heldPods))
	}
	if err := c.Client.AppsV1().ReplicaSets(ns).Delete(ctx, "held", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := c.Kubectl(t, "delete", "pod", "-n", ns, heldPods[0].Name, "--wait=false"); err != nil {
		t.Errorf("deleting the pod of a ReplicaSet being deleted: %v: %s", err, stderr)
	}

	// The budget still holds the pods whose owner stays.
	keep := podsOf("keep")
	if len(keep) != 1 {
		t.Fatalf("%d pods of keep, want 1", len(keep))
	}
	_, stderr, err := c.Kubectl(t, "delete", "pod", "-n", ns, keep[0].Name, "--wait=false")
	if err == nil || !strings.Contains(stderr, "TooManyRequests") || !strings.Contains(stderr, budgetName) {
		t.Errorf("kubectl delete pod of a kept Deployment: err %v, stderr %q; want 429 naming %s", err, stderr, budgetName)
	}
}
