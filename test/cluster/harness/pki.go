package harness

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/kruise-native/kruise-native/internal/localstack"
)

// WebhookClientUser is the identity kube-apiserver presents to the Pod webhook (the
// chart's RBAC lets only this user call it; artifacts/deploy/README.md, "Pod webhook
// caller").
const WebhookClientUser = "kube-apiserver-webhook-client"

// The cluster's certificates: name, signing CA, subject, usage, SANs (hack/lib/certs.sh).
func certificates() [][5]string {
	apiSANs := "DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local," +
		"IP:" + NodeIP + ",IP:" + KubernetesServiceIP
	return [][5]string{
		{"apiserver", "ca", "/CN=kube-apiserver", "server", apiSANs},
		{"apiserver-kubelet-client", "ca", "/O=system:masters/CN=kube-apiserver-kubelet-client", "client", ""},
		{"admin", "ca", "/O=system:masters/CN=kubernetes-admin", "client", ""},
		{"kube-controller-manager", "ca", "/CN=system:kube-controller-manager", "client", ""},
		{"kube-scheduler", "ca", "/CN=system:kube-scheduler", "client", ""},
		{"kube-controller-manager-serving", "ca", "/CN=kube-controller-manager", "server", "IP:127.0.0.1"},
		{"kube-scheduler-serving", "ca", "/CN=kube-scheduler", "server", "IP:127.0.0.1"},
		{"kubelet", "ca", "/O=system:nodes/CN=system:node:" + NodeName, "client", ""},
		{"kubelet-serving", "ca", "/CN=" + NodeName, "server", "DNS:" + NodeName + ",IP:" + NodeIP},
		{"kube-proxy", "ca", "/CN=system:kube-proxy", "client", ""},
		{"front-proxy-client", "front-proxy-ca", "/CN=front-proxy-client", "client", ""},
		{WebhookClientUser, "ca", "/CN=" + WebhookClientUser, "client", ""},
		// The outside etcd (StartOutsideEtcd), with a CA of its own as a real one has.
		{"outside-etcd", "etcd-ca", "/CN=outside-etcd", "server", "IP:" + NodeIP},
		{"outside-etcd-client", "etcd-ca", "/CN=kruise-apiserver", "client", ""},
	}
}

// makePKI creates the cluster's CAs, certificates and service account key pair with
// hack/lib/certs.sh (openssl), the helpers the local stack and hack/gen-certs.sh use.
func makePKI(ctx context.Context, l Layout) error {
	if err := os.MkdirAll(l.PKI, 0o700); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(`set -o errexit -o nounset -o pipefail
source "$ROOT/hack/lib/certs.sh"
d="$PKI"
certs::ca "$d" ca kruise-native-test-cluster-ca
certs::ca "$d" front-proxy-ca kruise-native-test-cluster-front-proxy-ca
certs::ca "$d" etcd-ca kruise-native-test-cluster-etcd-ca
certs::keypair "$d" sa
`)
	for _, c := range certificates() {
		fmt.Fprintf(&b, "certs::signed \"$d\" %s %s %q %s %q\n", c[1], c[0], c[2], c[3], c[4])
	}
	cmd := exec.CommandContext(ctx, "bash", "-c", b.String())
	cmd.Env = append(os.Environ(), "ROOT="+l.Root, "PKI="+l.PKI)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("certificates with hack/lib/certs.sh: %w: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

func (l Layout) pki(name string) string { return filepath.Join(l.PKI, name) }

// kubeconfigPath is the kubeconfig of a component (or "admin").
func (l Layout) kubeconfigPath(component string) string {
	return l.StatePath("kubeconfigs", component+".kubeconfig")
}

// writeKubeconfigs writes a kubeconfig per client certificate that talks to
// kube-apiserver on the node address, with the credentials embedded.
func writeKubeconfigs(l Layout) error {
	ca, err := os.ReadFile(l.pki("ca.crt"))
	if err != nil {
		return err
	}
	for _, user := range []string{"admin", "kube-controller-manager", "kube-scheduler", "kubelet", "kube-proxy"} {
		crt, err := os.ReadFile(l.pki(user + ".crt"))
		if err != nil {
			return err
		}
		key, err := os.ReadFile(l.pki(user + ".key"))
		if err != nil {
			return err
		}
		cfg := clientcmdapi.NewConfig()
		cfg.Clusters["kn-test"] = &clientcmdapi.Cluster{Server: l.APIServerURL(), CertificateAuthorityData: ca}
		cfg.AuthInfos[user] = &clientcmdapi.AuthInfo{ClientCertificateData: crt, ClientKeyData: key}
		cfg.Contexts[user] = &clientcmdapi.Context{Cluster: "kn-test", AuthInfo: user}
		cfg.CurrentContext = user
		data, err := clientcmd.Write(*cfg)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(l.kubeconfigPath(user)), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(l.kubeconfigPath(user), data, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// writeAdmissionConfig gives kube-apiserver the webhook client certificate for the
// chart's Pod webhook Service (artifacts/deploy/README.md, "Pod webhook caller"): keyed by
// the Service's host, so no other webhook receives it.
func writeAdmissionConfig(l Layout) (string, error) {
	kc := l.StatePath("kubeconfigs", "webhook-client.kubeconfig")
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
users:
- name: kruise-apiserver.kruise-system.svc:443
  user:
    client-certificate: %s
    client-key: %s
- name: kruise-apiserver.kruise-system.svc
  user:
    client-certificate: %[1]s
    client-key: %[2]s
`, l.pki(WebhookClientUser+".crt"), l.pki(WebhookClientUser+".key"))
	if err := os.WriteFile(kc, []byte(cfg), 0o600); err != nil {
		return "", err
	}
	file := l.StatePath("admission-config.yaml")
	return file, os.WriteFile(file, []byte(localstack.WebhookAdmissionConfig(kc)), 0o600)
}
