package cluster

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// waitPodRunning waits until the pod runs with every container ready, and returns it.
func waitPodRunning(ctx context.Context, cs kubernetes.Interface, ns, name string, timeout time.Duration) (*corev1.Pod, error) {
	var pod *corev1.Pod
	err := harness.WaitFor(ctx, timeout, 500*time.Millisecond, "pod "+ns+"/"+name+" running and ready", func(ctx context.Context) error {
		p, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		pod = p
		if p.Status.Phase != corev1.PodRunning {
			return fmt.Errorf("phase %s %s", p.Status.Phase, podWhy(p))
		}
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status != corev1.ConditionTrue {
				return fmt.Errorf("not ready: %s", podWhy(p))
			}
		}
		return nil
	})
	return pod, err
}

// podWhy summarizes the waiting or terminated reasons of a pod's containers.
func podWhy(p *corev1.Pod) string {
	var b strings.Builder
	for _, s := range append(append([]corev1.ContainerStatus{}, p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...) {
		switch {
		case s.State.Waiting != nil:
			fmt.Fprintf(&b, " %s: %s %s;", s.Name, s.State.Waiting.Reason, s.State.Waiting.Message)
		case s.State.Terminated != nil:
			fmt.Fprintf(&b, " %s: terminated %s (%d);", s.Name, s.State.Terminated.Reason, s.State.Terminated.ExitCode)
		}
	}
	for _, c := range p.Status.Conditions {
		if c.Status != corev1.ConditionTrue && c.Message != "" {
			fmt.Fprintf(&b, " %s: %s;", c.Type, c.Message)
		}
	}
	return b.String()
}

// appSays asks testapp in the pod at ip which image it runs, from the node.
func appSays(ctx context.Context, ip string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+ip+"/", nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return strings.TrimSpace(string(b)), err
}

// deletePodAndWait deletes a pod and waits until it is gone (kubelet stopped it).
func deletePodAndWait(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	if err := cs.CoreV1().Pods(ns).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		return err
	}
	return harness.WaitFor(ctx, 90*time.Second, 250*time.Millisecond, "pod "+ns+"/"+name+" gone", func(ctx context.Context) error {
		_, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		return fmt.Errorf("still there")
	})
}
