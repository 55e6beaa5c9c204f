package nodebench

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// Kruise Native as the README installs it: the Helm chart, as make test-cluster's
// first install (etcd.mode=single on a hand-made hostPath PV, the node daemon on the
// node's containerd socket), with one kruise-controller replica so that its CPU is one
// process's.
const (
	releaseName     = "kruise-native"
	kruiseNamespace = harness.KruiseNamespace
)

// helm runs _output/bin/helm against the cluster with its homes under the harness's
// state directory (removed with it).
func helm(ctx context.Context, c *harness.Cluster, args ...string) (string, error) {
	cmd := c.Command(ctx, "helm", args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("helm %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return out.String(), nil
}

func chartValues(c *harness.Cluster, preDownload bool) []string {
	return []string{
		"--set", "nodeDaemon.runtimeSocket=" + c.Layout.ContainerdSocket(),
		"--set", "etcd.mode=single",
		"--set", "controller.replicas=1",
		"--set", fmt.Sprintf("featureGates.PreDownloadImageForInPlaceUpdate=%t", preDownload),
	}
}

// Install installs the chart with the PreDownloadImageForInPlaceUpdate gate as given
// and waits until kruise-system runs.
func Install(ctx context.Context, c *harness.Cluster, preDownload bool) error {
	if err := c.CreateEtcdPV(ctx); err != nil {
		return fmt.Errorf("etcd PV: %w", err)
	}
	chart := filepath.Join(c.Layout.Root, "artifacts", "charts", "kruise-native")
	args := append([]string{"install", releaseName, chart, "--wait", "--timeout", "5m"}, chartValues(c, preDownload)...)
	if _, err := helm(ctx, c, args...); err != nil {
		return err
	}
	return waitKruiseReady(ctx, c)
}

// waitKruiseReady waits until kruise-system's pods of kruise-apiserver,
// kruise-controller and kruise-node-daemon all run and are Ready, with none of an
// older revision left, and the Kruise APIs answer.
func waitKruiseReady(ctx context.Context, c *harness.Cluster) error {
	kc, err := newClients(c)
	if err != nil {
		return err
	}
	return harness.WaitFor(ctx, 3*time.Minute, 500*time.Millisecond, "kruise-system ready", func(ctx context.Context) error {
		pods, err := c.Client.CoreV1().Pods(kruiseNamespace).List(ctx, metav1.ListOptions{})
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, p := range pods.Items {
			app := p.Labels["app.kubernetes.io/name"]
			if app == "" || p.Status.Phase == corev1.PodSucceeded {
				continue
			}
			if p.DeletionTimestamp != nil || !podReady(&p) {
				return fmt.Errorf("%s not ready", p.Name)
			}
			seen[app] = true
		}
		for _, app := range []string{"kruise-apiserver", "kruise-controller", "kruise-node-daemon"} {
			if !seen[app] {
				return fmt.Errorf("no %s pod", app)
			}
		}
		_, err = kc.kruise.AppsV1alpha1().CloneSets("default").List(ctx, metav1.ListOptions{Limit: 1})
		return err
	})
}
