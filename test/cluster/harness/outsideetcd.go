package harness

import (
	"context"
	"net"
	"os"
	"strconv"

	"github.com/kruise-native/kruise-native/internal/localstack"
)

// OutsideEtcd is an etcd that runs beside the cluster rather than in its pods, as the
// etcd of the chart's etcd.mode=external: the node's address, TLS, client certificates.
type OutsideEtcd struct {
	// Servers is its client URL.
	Servers string
	// CAFile, CertFile, KeyFile: the CA that signed its serving certificate, and a client
	// certificate it trusts (PEM files).
	CAFile, CertFile, KeyFile string
}

// StartOutsideEtcd starts the outside etcd on NodeIP (pods reach it there, as they reach
// kube-apiserver), with an empty data directory. Down stops it.
func (c *Cluster) StartOutsideEtcd(ctx context.Context) (OutsideEtcd, error) {
	l := c.Layout
	dir := l.StatePath("outside-etcd")
	if err := os.RemoveAll(dir); err != nil {
		return OutsideEtcd{}, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return OutsideEtcd{}, err
	}
	e := OutsideEtcd{
		Servers:  "https://" + net.JoinHostPort(NodeIP, strconv.Itoa(l.Ports.OutsideEtcd)),
		CAFile:   l.pki("etcd-ca.crt"),
		CertFile: l.pki("outside-etcd-client.crt"),
		KeyFile:  l.pki("outside-etcd-client.key"),
	}
	// The peer URL stays on loopback: one member, nobody else joins.
	peer := "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(l.Ports.OutsideEtcdPeer))
	p, err := c.startProc("outside-etcd", l.Bin("etcd"),
		"--name=kn-outside", "--data-dir="+dir,
		"--listen-client-urls="+e.Servers, "--advertise-client-urls="+e.Servers,
		"--cert-file="+l.pki("outside-etcd.crt"), "--key-file="+l.pki("outside-etcd.key"),
		"--client-cert-auth", "--trusted-ca-file="+e.CAFile,
		"--listen-peer-urls="+peer, "--initial-advertise-peer-urls="+peer,
		"--initial-cluster=kn-outside="+peer,
		"--unsafe-no-fsync", "--log-level=warn")
	if err != nil {
		return OutsideEtcd{}, err
	}
	hc, err := l.httpsClient(e.CAFile, "outside-etcd-client")
	if err != nil {
		return OutsideEtcd{}, err
	}
	return e, c.waitProc(ctx, p, componentTimeout, "outside etcd ready", func(ctx context.Context) error {
		return localstack.GetOK(ctx, hc, e.Servers+"/readyz")
	})
}
