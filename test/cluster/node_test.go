package cluster

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// testNode: a pod of a test image, pulled from the loopback registry through the
// docker.io mirror, runs on the node, gets an address of the pod network and answers
// the node from it.
func (s *suite) testNode(t *testing.T) {
	ctx := context.Background()
	cs := s.c.Client
	if _, err := s.c.Registry.Push(ctx, "nginx:alpine"); err != nil {
		t.Fatal(err)
	}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "hello", Namespace: "default"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx:alpine"}}},
	}
	begin := time.Now()
	if _, err := cs.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	p, err := waitPodRunning(ctx, cs, "default", "hello", 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	says, err := appSays(ctx, p.Status.PodIP)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(says, "image=docker.io/library/nginx:alpine ") {
		t.Fatalf("the container says %q", says)
	}
	t.Logf("pod Running and Ready in %s at %s; the container says %q", time.Since(begin).Round(100*time.Millisecond), p.Status.PodIP, says)
	if err := deletePodAndWait(ctx, cs, "default", "hello"); err != nil {
		t.Fatal(err)
	}
}
