package cloneset

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// progressing is the CloneSet's Progressing condition, nil without one.
func progressing(cs *v1alpha1.CloneSet) *v1alpha1.CloneSetCondition {
	for i := range cs.Status.Conditions {
		if cs.Status.Conditions[i].Type == "Progressing" {
			return &cs.Status.Conditions[i]
		}
	}
	return nil
}

// kubectlKruise runs `kubectl kruise ARGS` with the stack's bin directory first on
// PATH, as a user with the plugin installed does.
func kubectlKruise(t *testing.T, args ...string) (string, error) {
	t.Helper()
	c := framework.Get(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(c.BinDir, "kubectl"), append(append([]string{"kruise"}, args...), "--kubeconfig="+c.Kubeconfig)...)
	cmd.Env = append(os.Environ(), "PATH="+c.BinDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// A rollout whose new pods never become ready (they cannot be scheduled: kwok plays
// every pod it runs ready) ends Progressing=False, ProgressDeadlineExceeded after
// progressDeadlineSeconds, and `kubectl kruise rollout status` exits non-zero saying
// so; a paused rollout of the same template does not time out. Every CloneSet keeps a
// Progressing condition, also without a deadline.
func TestProgressDeadlineExceeded(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	client := kruise(t).AppsV1alpha1().CloneSets(ns)
	newSet := func(name string, deadline *int32) *v1alpha1.CloneSet {
		labels := map[string]string{"app": name}
		return &v1alpha1.CloneSet{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: v1alpha1.CloneSetSpec{
				Replicas: ptr.To[int32](2),
				Selector: &metav1.LabelSelector{MatchLabels: labels},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: labels},
					Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx"}}},
				},
				ProgressDeadlineSeconds: deadline,
			},
		}
	}
	for _, cs := range []*v1alpha1.CloneSet{newSet("stuck", ptr.To[int32](10)), newSet("paused", ptr.To[int32](10)), newSet("nodeadline", nil)} {
		if _, err := client.Create(ctx, cs, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"stuck", "paused", "nodeadline"} {
		waitStatus(t, ns, name, 2*time.Minute, func(s v1alpha1.CloneSetStatus, cs *v1alpha1.CloneSet) bool {
			cond := progressing(cs)
			return s.AvailableReplicas == 2 && cond != nil && cond.Status == corev1.ConditionTrue && cond.Reason == "CloneSetAvailable"
		})
	}

	// The new template cannot be scheduled anywhere, so its pods never become ready.
	for _, name := range []string{"stuck", "paused"} {
		cs, err := client.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cs.Spec.Template.Spec.Containers[0].Image = "nginx:never-ready"
		cs.Spec.Template.Spec.NodeSelector = map[string]string{"example.com/no-such-node": "true"}
		cs.Spec.UpdateStrategy.Paused = name == "paused"
		if _, err := client.Update(ctx, cs, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	stuck := waitStatus(t, ns, "stuck", 2*time.Minute, func(_ v1alpha1.CloneSetStatus, cs *v1alpha1.CloneSet) bool {
		cond := progressing(cs)
		return cond != nil && cond.Status == corev1.ConditionFalse && cond.Reason == "ProgressDeadlineExceeded"
	})
	if waited := time.Since(start); waited < 9*time.Second {
		t.Errorf("deadline exceeded after %v, before progressDeadlineSeconds (10s)", waited)
	}
	if stuck.Status.UpdatedReadyReplicas != 0 {
		t.Fatalf("updatedReadyReplicas %d: the new pods were meant never to be ready", stuck.Status.UpdatedReadyReplicas)
	}
	out, err := kubectlKruise(t, "rollout", "status", "cloneset/stuck", "-n", ns, "--timeout=60s")
	if err == nil {
		t.Fatalf("kubectl kruise rollout status exited 0 on a rollout past its deadline:\n%s", out)
	}
	if !strings.Contains(out, "exceeded its progress deadline") {
		t.Fatalf("kubectl kruise rollout status: %v, output lacks the deadline:\n%s", err, out)
	}

	// The paused one has passed its deadline too, paused: it has not timed out.
	paused, err := client.Get(ctx, "paused", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if cond := progressing(paused); cond == nil || cond.Status != corev1.ConditionTrue || cond.Reason != "CloneSetProgressPaused" {
		t.Fatalf("paused CloneSet's Progressing condition %s, want True, CloneSetProgressPaused", describe(cond))
	}
	// And the CloneSet without a deadline still shows Progressing, as a Deployment does.
	nodeadline, err := client.Get(ctx, "nodeadline", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if cond := progressing(nodeadline); cond == nil || cond.Reason != "CloneSetAvailable" {
		t.Fatalf("CloneSet without progressDeadlineSeconds: Progressing %s, want True, CloneSetAvailable", describe(cond))
	}
}

func describe(cond *v1alpha1.CloneSetCondition) string {
	if cond == nil {
		return "missing"
	}
	return fmt.Sprintf("%s (%s: %s)", cond.Status, cond.Reason, cond.Message)
}

// progressDeadlineSeconds 2147483647 means no deadline, as for a Deployment: it is
// accepted whatever minReadySeconds is.
func TestProgressDeadlineMaxInt32IsNoDeadline(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	labels := map[string]string{"app": "forever"}
	cs := &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "forever"},
		Spec: v1alpha1.CloneSetSpec{
			Replicas:                ptr.To[int32](1),
			Selector:                &metav1.LabelSelector{MatchLabels: labels},
			Template:                corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx"}}}},
			MinReadySeconds:         2147483647,
			ProgressDeadlineSeconds: ptr.To[int32](2147483647),
		},
	}
	if _, err := kruise(t).AppsV1alpha1().CloneSets(ns).Create(context.Background(), cs, metav1.CreateOptions{}); err != nil {
		t.Fatalf("progressDeadlineSeconds 2147483647 with minReadySeconds 2147483647 refused: %v", err)
	}
	waitStatus(t, ns, "forever", time.Minute, func(s v1alpha1.CloneSetStatus, cs *v1alpha1.CloneSet) bool {
		cond := progressing(cs)
		return s.ReadyReplicas == 1 && cond != nil && cond.Status == corev1.ConditionTrue && cond.Reason == "CloneSetUpdated"
	})
}
