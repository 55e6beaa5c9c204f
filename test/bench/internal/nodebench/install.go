package nodebench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// Kruise Native as the README installs it: the Helm chart, as make test-cluster's
// first install (etcd.mode=single on a hand-made hostPath PV, the node daemon on the
// node's containerd socket), with one kruise-controller replica so that its CPU is one
// process's.
const (
	releaseName     = "kruise-native"
	kruiseNamespace = "kruise-system"
	etcdPV          = "kruise-apiserver-etcd"
	etcdPVC         = "kruise-apiserver-etcd"
	// nonRoot is the uid kruise-apiserver runs as: the hostPath directory must be its.
	nonRoot = 65532
)

// helm runs _output/bin/helm against the cluster with its homes under the harness's
// state directory (removed with it).
func helm(ctx context.Context, c *harness.Cluster, args ...string) (string, error) {
	l := c.Layout
	cmd := exec.CommandContext(ctx, l.Bin("helm"), append([]string{"--kubeconfig", l.Kubeconfig()}, args...)...)
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+l.StatePath("helm", "cache"),
		"HELM_CONFIG_HOME="+l.StatePath("helm", "config"), "HELM_DATA_HOME="+l.StatePath("helm", "data"))
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
	if err := createEtcdPV(ctx, c); err != nil {
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

// createEtcdPV makes the PersistentVolume the chart's claim binds to: a hostPath under
// the harness's state directory, owned by nonRoot, bound to the claim ahead.
func createEtcdPV(ctx context.Context, c *harness.Cluster) error {
	dir := c.Layout.StatePath("pv", etcdPV)
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.Chown(dir, nonRoot, nonRoot); err != nil {
		return err
	}
	pv := &corev1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: etcdPV},
		Spec: corev1.PersistentVolumeSpec{
			Capacity:                      corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("8Gi")},
			AccessModes:                   []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			PersistentVolumeReclaimPolicy: corev1.PersistentVolumeReclaimRetain,
			ClaimRef:                      &corev1.ObjectReference{Namespace: kruiseNamespace, Name: etcdPVC},
			PersistentVolumeSource:        corev1.PersistentVolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: dir}},
		},
	}
	_, err := c.Client.CoreV1().PersistentVolumes().Create(ctx, pv, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}
