package nodebench

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/cluster/harness"
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

// chartValues: Kruise Native as the README installs it, the Helm chart as make
// test-cluster's first install (etcd.mode=single on a hand-made hostPath PV, the node
// daemon on the node's containerd socket), with one kruise-controller replica so that
// its CPU is one process's.
func chartValues(c *harness.Cluster, preDownload bool) []string {
	return append(c.NodeValues(),
		"--set", "etcd.mode=single",
		"--set", "controller.replicas=1",
		"--set", fmt.Sprintf("featureGates.PreDownloadImageForInPlaceUpdate=%t", preDownload),
	)
}

// install installs the chart with the PreDownloadImageForInPlaceUpdate gate as given
// and waits until kruise-system runs.
func install(ctx context.Context, c *harness.Cluster, cl clients, preDownload bool) error {
	if err := c.CreateEtcdPV(ctx); err != nil {
		return fmt.Errorf("etcd PV: %w", err)
	}
	args := append([]string{"install", harness.ReleaseName, c.ChartDir(), "--wait", "--timeout", "5m"}, chartValues(c, preDownload)...)
	if _, err := helm(ctx, c, args...); err != nil {
		return err
	}
	return waitKruiseReady(ctx, c, cl)
}

// waitKruiseReady waits until kruise-system's pods run and are Ready, with none of an
// older revision left (harness), and the Kruise APIs answer.
func waitKruiseReady(ctx context.Context, c *harness.Cluster, cl clients) error {
	if _, err := c.WaitKruiseSystemReady(ctx, 3*time.Minute); err != nil {
		return err
	}
	return harness.WaitFor(ctx, time.Minute, 500*time.Millisecond, "the Kruise APIs answer", func(ctx context.Context) error {
		_, err := cl.kruise.AppsV1alpha1().CloneSets("default").List(ctx, metav1.ListOptions{Limit: 1})
		return err
	})
}
