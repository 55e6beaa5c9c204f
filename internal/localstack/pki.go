package localstack

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// certificate is one certs::signed call of hack/lib/certs.sh.
type certificate struct{ ca, name, subject, usage, sans string }

// certificates are the stack's certificates; the HA ones are added with HA.
func (s *Stack) certificates() []certificate {
	kruiseSANs := fmt.Sprintf("DNS:%[1]s.%[2]s.svc,DNS:%[1]s.%[2]s.svc.cluster.local,DNS:%[1]s.%[2]s,DNS:%[1]s,DNS:localhost,IP:127.0.0.1", kruiseService, KruiseNamespace)
	certs := []certificate{
		{"ca", "apiserver", "/CN=kube-apiserver", "server",
			"DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,IP:127.0.0.1,IP:" + serviceIP},
		{"ca", "kube-controller-manager-serving", "/CN=kube-controller-manager", "server", "DNS:localhost,IP:127.0.0.1"},
		{"ca", "kube-scheduler-serving", "/CN=kube-scheduler", "server", "DNS:localhost,IP:127.0.0.1"},
		{"ca", "admin", "/O=system:masters/CN=kubernetes-admin", "client", ""},
		{"ca", "kube-controller-manager", "/CN=system:kube-controller-manager", "client", ""},
		{"ca", "kube-scheduler", "/CN=system:kube-scheduler", "client", ""},
		// kwok plays every kubelet; it writes Node and Pod status of all fake nodes.
		{"ca", "kwok", "/O=system:masters/CN=kwok", "client", ""},
		{"front-proxy-ca", "front-proxy-client", "/CN=front-proxy-client", "client", ""},
		// kube-apiserver's client certificate for the Pod webhook (admission config):
		// signed by the cluster client CA that kruise-apiserver's delegated authentication
		// trusts; RBAC (artifacts/deploy/rbac/pod-webhook-caller.yaml) lets this user call it.
		{"ca", "kube-apiserver-webhook-client", "/CN=" + webhookClientUser, "client", ""},
		{"kruise-ca", "kruise-apiserver-serving", fmt.Sprintf("/CN=%s.%s.svc", kruiseService, KruiseNamespace), "server", kruiseSANs},
	}
	if s.HA {
		// As hack/gen-certs.sh: an etcd CA of its own (etcd admits every client certificate
		// it signed), one certificate for every member as server and peer, and
		// kruise-apiserver's client certificate.
		certs = append(certs,
			certificate{"etcd-ca", "etcd-member", "/CN=etcd-member", "both", "DNS:localhost,IP:127.0.0.1"},
			certificate{"etcd-ca", "etcd-client", "/CN=" + kruiseService, "client", ""},
		)
	}
	return certs
}

// ensurePKI creates the missing certificates with hack/lib/certs.sh (openssl); existing
// files are kept.
func (s *Stack) ensurePKI(ctx context.Context) error {
	dir := s.PKI("")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("set -o errexit -o nounset -o pipefail\nsource \"$ROOT/hack/lib/certs.sh\"\nd=\"$PKI\"\n")
	b.WriteString(`certs::ca "$d" ca kruise-native-local-ca
certs::ca "$d" front-proxy-ca kruise-native-local-front-proxy-ca
certs::ca "$d" kruise-ca kruise-native-local-kruise-apiserver-ca
certs::keypair "$d" sa
`)
	if s.HA {
		b.WriteString("certs::ca \"$d\" etcd-ca kruise-native-local-etcd-ca\n")
	}
	for _, c := range s.certificates() {
		fmt.Fprintf(&b, "certs::signed \"$d\" %s %s %q %s %q\n", c.ca, c.name, c.subject, c.usage, c.sans)
	}
	cmd := exec.CommandContext(ctx, "bash", "-c", b.String())
	cmd.Env = append(os.Environ(), "ROOT="+s.Root, "PKI="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("creating certificates in %s with hack/lib/certs.sh: %w: %s", dir, err, strings.TrimSpace(string(out)))
	}
	return nil
}
