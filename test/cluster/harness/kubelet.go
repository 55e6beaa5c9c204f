package harness

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/internal/localstack"
)

// kubeletConfig is the node's KubeletConfiguration. What this machine needs:
//   - failCgroupV1: false — the host has cgroup v1 only, which kubelet >= 1.35 refuses
//     unless told (the option is deprecated, still honoured in 1.36);
//   - cgroupDriver: cgroupfs — there is no systemd, and containerd 1.6 cannot tell
//     kubelet its driver (no RuntimeConfig CRI call);
//   - oomScoreAdj: 0 — nothing here may lower an oom_score_adj (no CAP_SYS_RESOURCE);
//   - no cluster DNS: none runs; pods get the host's resolver;
//   - eviction and image GC thresholds that a shared disk does not trigger in the middle
//     of a test (the imported images are not pullable from anywhere).
//
// kubelet listens on the node address only, its healthz on 127.0.0.1, no read-only port;
// clients authenticate with certificates of the cluster CA and are authorized through
// kube-apiserver.
func kubeletConfig(l Layout) string {
	return fmt.Sprintf(`apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: %s
port: %d
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: %d
tlsCertFile: %s
tlsPrivateKeyFile: %s
authentication:
  anonymous:
    enabled: false
  webhook:
    enabled: true
  x509:
    clientCAFile: %s
authorization:
  mode: Webhook
containerRuntimeEndpoint: unix://%s
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
oomScoreAdj: 0
protectKernelDefaults: false
clusterDomain: cluster.local
resolvConf: /etc/resolv.conf
podLogsDir: %s
rotateCertificates: false
serverTLSBootstrap: false
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard:
  memory.available: 100Mi
  nodefs.available: 1%%
  nodefs.inodesFree: 1%%
  imagefs.available: 1%%
maxPods: 110
`, NodeIP, l.Ports.Kubelet, l.Ports.KubeletHealthz,
		l.pki("kubelet-serving.crt"), l.pki("kubelet-serving.key"), l.pki("ca.crt"),
		l.ContainerdSocket(), l.StatePath("pod-logs"))
}

// startKubelet starts kubelet and waits until its Node is Ready.
func (c *Cluster) startKubelet(ctx context.Context) error {
	l := c.Layout
	cfg := l.StatePath("kubelet-config.yaml")
	if err := os.WriteFile(cfg, []byte(kubeletConfig(l)), 0o644); err != nil {
		return err
	}
	p, err := c.startProc("kubelet", l.Bin("kubelet"),
		"--config="+cfg,
		"--kubeconfig="+l.kubeconfigPath("kubelet"),
		"--root-dir="+l.StatePath("kubelet"),
		"--hostname-override="+NodeName,
		"--node-ip="+NodeIP,
		"--v=2",
	)
	if err != nil {
		return err
	}
	hc := &http.Client{Timeout: 2 * time.Second}
	if err := c.waitProc(ctx, p, componentTimeout, "kubelet healthy", func(ctx context.Context) error {
		return localstack.GetOK(ctx, hc, "http://127.0.0.1:"+strconv.Itoa(l.Ports.KubeletHealthz)+"/healthz")
	}); err != nil {
		return err
	}
	return c.waitProc(ctx, p, componentTimeout, "Node "+NodeName+" Ready", func(ctx context.Context) error {
		n, err := c.Client.CoreV1().Nodes().Get(ctx, NodeName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		for _, cond := range n.Status.Conditions {
			if cond.Type == corev1.NodeReady {
				if cond.Status == corev1.ConditionTrue {
					return nil
				}
				return fmt.Errorf("Ready=%s: %s", cond.Status, cond.Message)
			}
		}
		return fmt.Errorf("no Ready condition yet")
	})
}

// kubeProxyConfig: iptables mode for the cluster's pod range; NodePorts only on the node
// address (not on 127.0.0.1, where the local stacks of other engineers listen, so
// route_localnet stays as it is); conntrack sysctls left alone (the zero values).
func kubeProxyConfig(l Layout) string {
	return fmt.Sprintf(`apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection:
  kubeconfig: %s
hostnameOverride: %s
mode: iptables
clusterCIDR: %s
detectLocalMode: ClusterCIDR
healthzBindAddress: 127.0.0.1:%d
metricsBindAddress: 127.0.0.1:%d
nodePortAddresses:
- %s/32
iptables:
  localhostNodePorts: false
  minSyncPeriod: 1s
  syncPeriod: 30s
conntrack:
  maxPerCore: 0
  min: 0
  tcpEstablishedTimeout: 0s
  tcpCloseWaitTimeout: 0s
`, l.kubeconfigPath("kube-proxy"), NodeName, PodCIDR, l.Ports.KubeProxyHealthz, l.Ports.KubeProxyMetrics, NodeIP)
}

// startKubeProxy starts kube-proxy and waits for its first sync (healthz 200).
func (c *Cluster) startKubeProxy(ctx context.Context) error {
	l := c.Layout
	cfg := l.StatePath("kube-proxy-config.yaml")
	if err := os.WriteFile(cfg, []byte(kubeProxyConfig(l)), 0o644); err != nil {
		return err
	}
	p, err := c.startProc("kube-proxy", l.Bin("kube-proxy"), "--config="+cfg)
	if err != nil {
		return err
	}
	hc := &http.Client{Timeout: 2 * time.Second}
	return c.waitProc(ctx, p, componentTimeout, "kube-proxy synced", func(ctx context.Context) error {
		return localstack.GetOK(ctx, hc, "http://127.0.0.1:"+strconv.Itoa(l.Ports.KubeProxyHealthz)+"/healthz")
	})
}
