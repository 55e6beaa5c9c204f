package localstack

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The HA topology: kruise-etcd-0..2 (an etcd cluster over TLS, from BinDir/etcd), the
// kruise-apiserver replicas on it (--etcd-servers, no embedded etcd), HAProxy in front
// of them on the kruise-apiserver port, and kruise-controller replicas electing a leader.

func (s *Stack) etcdMemberURL(i int, peer bool) string {
	m := s.Ports.EtcdMembers[i]
	if peer {
		return fmt.Sprintf("https://127.0.0.1:%d", m.Peer)
	}
	return fmt.Sprintf("https://127.0.0.1:%d", m.Client)
}

// startEtcdMember starts kruise-etcd-<i>. Clients and peers must present a certificate
// signed by the etcd CA, as in artifacts/deploy/etcd. The members of a new cluster wait
// for each other, so Up starts all three before waiting for any (waitEtcdMember).
func (s *Stack) startEtcdMember(i int) error {
	name := Replica(KruiseEtcd, i)
	dir := filepath.Join(s.LocalDir, name)
	state := "new"
	if _, err := os.Stat(filepath.Join(dir, "member")); err == nil {
		state = "existing" // a restart: the member's data says who its peers are
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	var initial []string
	for j := range s.Ports.EtcdMembers {
		initial = append(initial, fmt.Sprintf("%s=%s", Replica(KruiseEtcd, j), s.etcdMemberURL(j, true)))
	}
	return s.startProcess(name, s.bin("etcd"), nil,
		"--name="+name,
		"--data-dir="+dir,
		"--listen-client-urls="+s.etcdMemberURL(i, false),
		"--advertise-client-urls="+s.etcdMemberURL(i, false),
		"--listen-peer-urls="+s.etcdMemberURL(i, true),
		"--initial-advertise-peer-urls="+s.etcdMemberURL(i, true),
		"--initial-cluster="+strings.Join(initial, ","),
		"--initial-cluster-state="+state,
		"--initial-cluster-token=kruise-native-local",
		"--client-cert-auth",
		"--trusted-ca-file="+s.PKI("etcd-ca.crt"),
		"--cert-file="+s.PKI("etcd-member.crt"),
		"--key-file="+s.PKI("etcd-member.key"),
		"--peer-client-cert-auth",
		"--peer-trusted-ca-file="+s.PKI("etcd-ca.crt"),
		"--peer-cert-file="+s.PKI("etcd-member.crt"),
		"--peer-key-file="+s.PKI("etcd-member.key"),
		"--peer-cert-allowed-cn=etcd-member",
		"--unsafe-no-fsync",
		"--log-level=warn",
	)
}

// waitEtcdMember waits for the member's /readyz (it is ready once it has a leader).
func (s *Stack) waitEtcdMember(ctx context.Context, i int) error {
	check, err := s.httpCheck(s.etcdMemberURL(i, false)+"/readyz", "etcd-ca.crt", "etcd-client")
	if err != nil {
		return err
	}
	return s.waitReady(ctx, Replica(KruiseEtcd, i), "/readyz", check)
}

// haproxyBin finds haproxy, installing Debian's package when it is missing.
func (s *Stack) haproxyBin(ctx context.Context) (string, error) {
	if p, err := exec.LookPath("haproxy"); err == nil {
		return p, nil
	}
	s.logf("haproxy not found: installing Debian's package (apt-get install -y haproxy)")
	for _, args := range [][]string{{"update"}, {"install", "-y", "--no-install-recommends", "haproxy"}} {
		cmd := exec.CommandContext(ctx, "apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("%s: apt-get %s: %w: %s", LoadBalancer, strings.Join(args, " "), err, lastLines(string(out), 10))
		}
	}
	return exec.LookPath("haproxy")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// haproxyConfig passes TLS through (mode tcp) so kruise-apiserver sees the callers'
// client certificates (the aggregator's front-proxy certificate, kube-apiserver's webhook
// client certificate), and sends traffic only to replicas whose /readyz answers 200 over
// TLS; a replica that stops answering leaves the pool within about a second.
func (s *Stack) haproxyConfig() string {
	var b strings.Builder
	fmt.Fprintf(&b, `global
  maxconn 4096
  stats socket %s mode 600 level operator
defaults
  mode tcp
  timeout connect 2s
  timeout client 1h
  timeout server 1h
  retries 2
  option redispatch
frontend kruise-apiserver
  bind 127.0.0.1:%d
  default_backend kruise-apiservers
backend kruise-apiservers
  balance roundrobin
  option httpchk
  http-check send meth GET uri /readyz
  http-check expect status 200
  default-server check check-ssl verify required ca-file %s inter 500ms fall 2 rise 2 on-marked-down shutdown-sessions
`, s.haproxySocket(), s.Ports.KruiseAPIServer, s.PKI("kruise-ca.crt"))
	for i, p := range s.Ports.KruiseAPIServerReplicas {
		fmt.Fprintf(&b, "  server %s 127.0.0.1:%d\n", Replica(KruiseAPIServer, i), p)
	}
	return b.String()
}

func (s *Stack) startLoadBalancer(ctx context.Context) error {
	bin, err := s.haproxyBin(ctx)
	if err != nil {
		return err
	}
	cfg := filepath.Join(s.LocalDir, "haproxy.cfg")
	if err := writeAtomic(cfg, []byte(s.haproxyConfig()), 0o644); err != nil {
		return err
	}
	// -db: foreground, no daemon; -W master-worker so SIGTERM stops it cleanly
	if err := s.startProcess(LoadBalancer, bin, nil, "-W", "-db", "-f", cfg); err != nil {
		return err
	}
	check, err := s.httpCheck(fmt.Sprintf("https://127.0.0.1:%d/readyz", s.Ports.KruiseAPIServer), "kruise-ca.crt", "admin")
	if err != nil {
		return err
	}
	return s.waitReady(ctx, LoadBalancer, "/readyz of a kruise-apiserver replica through it", check)
}

func (s *Stack) haproxySocket() string { return filepath.Join(s.LocalDir, "haproxy.sock") }

// LoadBalanced reports whether HAProxy currently sends traffic to the kruise-apiserver
// replica (its health check passes), from HAProxy's stats socket.
func (s *Stack) LoadBalanced(ctx context.Context, replica string) (bool, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", s.haproxySocket())
	if err != nil {
		return false, fmt.Errorf("%s stats socket: %w", LoadBalancer, err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("show servers state kruise-apiservers\n")); err != nil {
		return false, err
	}
	out, err := io.ReadAll(conn)
	if err != nil {
		return false, err
	}
	// "be_id be_name srv_id srv_name srv_addr srv_op_state ...": op state 2 is running
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) > 5 && f[3] == replica {
			return f[5] == "2", nil
		}
	}
	return false, fmt.Errorf("%s does not know server %s", LoadBalancer, replica)
}
