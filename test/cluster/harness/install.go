package harness

import (
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
)

// What installing the chart on this node needs: the node has no volume provisioner, so
// kruise-apiserver's embedded etcd (etcd.mode=single) gets a hand-made hostPath
// PersistentVolume bound ahead to the chart's claim.
const (
	KruiseNamespace = "kruise-system"
	EtcdPV          = "kruise-apiserver-etcd"
	EtcdPVC         = "kruise-apiserver-etcd"
	// KruiseAPIServerUID is the uid kruise-apiserver runs as; a hostPath volume ignores
	// fsGroup, so the directory must belong to it before the pod starts.
	KruiseAPIServerUID = 65532
)

// Command runs a program of _output/bin against the cluster: kubectl and helm get its
// kubeconfig, helm its homes under the state directory (removed with it).
func (c *Cluster) Command(ctx context.Context, bin string, args ...string) *exec.Cmd {
	l := c.Layout
	if bin == "kubectl" || bin == "helm" {
		args = append([]string{"--kubeconfig", l.Kubeconfig()}, args...)
	}
	cmd := exec.CommandContext(ctx, l.Bin(bin), args...)
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+l.StatePath("helm", "cache"),
		"HELM_CONFIG_HOME="+l.StatePath("helm", "config"), "HELM_DATA_HOME="+l.StatePath("helm", "data"))
	return cmd
}

// CreateEtcdPV makes the PersistentVolume EtcdPV on an empty directory owned by
// KruiseAPIServerUID, bound to the claim ahead. One left by an earlier install is
// deleted first, so its data does not come back.
func (c *Cluster) CreateEtcdPV(ctx context.Context) error {
	dir := c.Layout.StatePath("pv", EtcdPV)
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.Chown(dir, KruiseAPIServerUID, KruiseAPIServerUID); err != nil {
		return err
	}
	pvs := c.Client.CoreV1().PersistentVolumes()
	if err := pvs.Delete(ctx, EtcdPV, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting the old etcd PV: %w", err)
	}
	if err := WaitFor(ctx, 30*time.Second, 200*time.Millisecond, "old etcd PV gone", func(ctx context.Context) error {
		_, err := pvs.Get(ctx, EtcdPV, metav1.GetOptions{})
		if err == nil {
			return fmt.Errorf("still there")
		}
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	}); err != nil {
		return err
	}
	pv := &corev1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: EtcdPV},
		Spec: corev1.PersistentVolumeSpec{
			Capacity:                      corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("8Gi")},
			AccessModes:                   []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			PersistentVolumeReclaimPolicy: corev1.PersistentVolumeReclaimRetain,
			ClaimRef:                      &corev1.ObjectReference{Namespace: KruiseNamespace, Name: EtcdPVC},
			PersistentVolumeSource:        corev1.PersistentVolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: dir}},
		},
	}
	if _, err := pvs.Create(ctx, pv, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating the etcd PV: %w", err)
	}
	return nil
}

// BuiltImages returns the images' tag (v<VERSION>) and the OCI tarballs `make images`
// wrote for it (pause and the three of Kruise Native), the images Up imports.
func BuiltImages(root string) (version string, files []string, err error) {
	v, err := os.ReadFile(filepath.Join(root, "VERSION"))
	if err != nil {
		return "", nil, err
	}
	version = "v" + strings.TrimSpace(string(v))
	for _, name := range []string{"pause", "kruise-apiserver", "kruise-controller", "kruise-node-daemon"} {
		f := filepath.Join(root, "_output", "images", name+"_"+version+".oci.tar")
		if _, err := os.Stat(f); err != nil {
			return "", nil, fmt.Errorf("%s: run `make images` first: %w", f, err)
		}
		files = append(files, f)
	}
	return version, files, nil
}
