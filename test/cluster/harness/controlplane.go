package harness

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/kruise-native/kruise-native/internal/localstack"
)

const componentTimeout = 90 * time.Second

// startEtcd runs kube-apiserver's etcd on 127.0.0.1 (nobody else needs it).
func (c *Cluster) startEtcd(ctx context.Context) error {
	l := c.Layout
	dir := l.StatePath("etcd")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	client := "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(l.Ports.Etcd))
	peer := "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(l.Ports.EtcdPeer))
	p, err := c.startProc("etcd", l.Bin("etcd"),
		"--name=kn-test", "--data-dir="+dir,
		"--listen-client-urls="+client, "--advertise-client-urls="+client,
		"--listen-peer-urls="+peer, "--initial-advertise-peer-urls="+peer,
		"--initial-cluster=kn-test="+peer,
		"--unsafe-no-fsync", "--log-level=warn")
	if err != nil {
		return err
	}
	hc := &http.Client{Timeout: 2 * time.Second}
	return c.waitProc(ctx, p, componentTimeout, "etcd ready", func(ctx context.Context) error {
		return localstack.GetOK(ctx, hc, client+"/readyz")
	})
}

// startKubeAPIServer listens on the node address only: pods reach it there through the
// kubernetes Service (kube-proxy's DNAT of KubernetesServiceIP:443), the harness and
// kubelet directly.
func (c *Cluster) startKubeAPIServer(ctx context.Context) error {
	l := c.Layout
	admission, err := writeAdmissionConfig(l)
	if err != nil {
		return err
	}
	args := []string{
		"--bind-address=" + NodeIP,
		"--advertise-address=" + NodeIP,
		"--secure-port=" + strconv.Itoa(l.Ports.KubeAPIServer),
		fmt.Sprintf("--etcd-servers=http://127.0.0.1:%d", l.Ports.Etcd),
		"--tls-cert-file=" + l.pki("apiserver.crt"),
		"--tls-private-key-file=" + l.pki("apiserver.key"),
		"--client-ca-file=" + l.pki("ca.crt"),
		"--kubelet-client-certificate=" + l.pki("apiserver-kubelet-client.crt"),
		"--kubelet-client-key=" + l.pki("apiserver-kubelet-client.key"),
		"--kubelet-certificate-authority=" + l.pki("ca.crt"),
		"--kubelet-preferred-address-types=InternalIP",
		"--authorization-mode=Node,RBAC",
		"--enable-admission-plugins=NodeRestriction",
		"--allow-privileged=true",
		"--service-cluster-ip-range=" + ServiceCIDR,
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + l.pki("sa.pub"),
		"--service-account-signing-key-file=" + l.pki("sa.key"),
		"--requestheader-client-ca-file=" + l.pki("front-proxy-ca.crt"),
		"--requestheader-allowed-names=front-proxy-client",
		"--requestheader-username-headers=X-Remote-User",
		"--requestheader-group-headers=X-Remote-Group",
		"--requestheader-extra-headers-prefix=X-Remote-Extra-",
		"--proxy-client-cert-file=" + l.pki("front-proxy-client.crt"),
		"--proxy-client-key-file=" + l.pki("front-proxy-client.key"),
		"--admission-control-config-file=" + admission,
		"--profiling=false",
	}
	p, err := c.startProc("kube-apiserver", l.Bin("kube-apiserver"), append(args, c.apiServerArgs...)...)
	if err != nil {
		return err
	}
	hc, err := l.httpsClient(l.pki("ca.crt"), "admin")
	if err != nil {
		return err
	}
	return c.waitProc(ctx, p, componentTimeout, "kube-apiserver ready", func(ctx context.Context) error {
		return localstack.GetOK(ctx, hc, l.APIServerURL()+"/readyz")
	})
}

func (c *Cluster) startKubeControllerManager(ctx context.Context) error {
	l := c.Layout
	kc := l.kubeconfigPath("kube-controller-manager")
	p, err := c.startProc("kube-controller-manager", l.Bin("kube-controller-manager"),
		"--kubeconfig="+kc, "--authentication-kubeconfig="+kc, "--authorization-kubeconfig="+kc,
		"--bind-address=127.0.0.1",
		"--secure-port="+strconv.Itoa(l.Ports.KubeControllerManager),
		"--tls-cert-file="+l.pki("kube-controller-manager-serving.crt"),
		"--tls-private-key-file="+l.pki("kube-controller-manager-serving.key"),
		"--client-ca-file="+l.pki("ca.crt"),
		"--requestheader-client-ca-file="+l.pki("front-proxy-ca.crt"),
		"--use-service-account-credentials=true",
		"--service-account-private-key-file="+l.pki("sa.key"),
		"--root-ca-file="+l.pki("ca.crt"),
		"--cluster-signing-cert-file="+l.pki("ca.crt"),
		"--cluster-signing-key-file="+l.pki("ca.key"),
		"--service-cluster-ip-range="+ServiceCIDR,
		"--cluster-cidr="+PodCIDR,
		"--cluster-name=kn-test",
		"--leader-elect=false",
		"--profiling=false",
	)
	if err != nil {
		return err
	}
	hc, err := l.httpsClient(l.pki("ca.crt"), "")
	if err != nil {
		return err
	}
	return c.waitProc(ctx, p, componentTimeout, "kube-controller-manager healthy", func(ctx context.Context) error {
		return localstack.GetOK(ctx, hc, fmt.Sprintf("https://127.0.0.1:%d/healthz", l.Ports.KubeControllerManager))
	})
}

func (c *Cluster) startKubeScheduler(ctx context.Context) error {
	l := c.Layout
	kc := l.kubeconfigPath("kube-scheduler")
	p, err := c.startProc("kube-scheduler", l.Bin("kube-scheduler"),
		"--kubeconfig="+kc, "--authentication-kubeconfig="+kc, "--authorization-kubeconfig="+kc,
		"--bind-address=127.0.0.1",
		"--secure-port="+strconv.Itoa(l.Ports.KubeScheduler),
		"--tls-cert-file="+l.pki("kube-scheduler-serving.crt"),
		"--tls-private-key-file="+l.pki("kube-scheduler-serving.key"),
		"--client-ca-file="+l.pki("ca.crt"),
		"--leader-elect=false",
		"--profiling=false",
	)
	if err != nil {
		return err
	}
	hc, err := l.httpsClient(l.pki("ca.crt"), "")
	if err != nil {
		return err
	}
	return c.waitProc(ctx, p, componentTimeout, "kube-scheduler ready", func(ctx context.Context) error {
		return localstack.GetOK(ctx, hc, fmt.Sprintf("https://127.0.0.1:%d/readyz", l.Ports.KubeScheduler))
	})
}
