package localstack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	authenticationv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

const clusterName = "kruise-native-local"

// writeKubeconfig writes a kubeconfig for kube-apiserver with the user's credentials
// embedded (copyable), mode 0600, atomically.
func (s *Stack) writeKubeconfig(file, user string, auth *clientcmdapi.AuthInfo) error {
	ca, err := os.ReadFile(s.PKI("ca.crt"))
	if err != nil {
		return err
	}
	ctxName := user + "@" + clusterName
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[clusterName] = &clientcmdapi.Cluster{
		Server:                   "https://127.0.0.1:" + strconv.Itoa(s.Ports.KubeAPIServer),
		CertificateAuthorityData: ca,
	}
	cfg.AuthInfos[user] = auth
	cfg.Contexts[ctxName] = &clientcmdapi.Context{Cluster: clusterName, AuthInfo: user}
	cfg.CurrentContext = ctxName
	data, err := clientcmd.Write(*cfg)
	if err != nil {
		return err
	}
	return writeAtomic(file, data, 0o600)
}

func writeAtomic(file string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, data, mode); err != nil {
		return err
	}
	return os.Rename(tmp, file)
}

func (s *Stack) certAuth(name string) (*clientcmdapi.AuthInfo, error) {
	crt, err := os.ReadFile(s.PKI(name + ".crt"))
	if err != nil {
		return nil, err
	}
	key, err := os.ReadFile(s.PKI(name + ".key"))
	if err != nil {
		return nil, err
	}
	return &clientcmdapi.AuthInfo{ClientCertificateData: crt, ClientKeyData: key}, nil
}

// ensureKubeconfigs writes the admin kubeconfig and those of the components with client
// certificates.
func (s *Stack) ensureKubeconfigs() error {
	auth, err := s.certAuth("admin")
	if err != nil {
		return err
	}
	if err := s.writeKubeconfig(s.Kubeconfig(), "kubernetes-admin", auth); err != nil {
		return err
	}
	for _, c := range []string{KubeControllerManager, KubeScheduler, Kwok} {
		auth, err := s.certAuth(c)
		if err != nil {
			return err
		}
		if err := s.writeKubeconfig(s.ComponentKubeconfig(c), c, auth); err != nil {
			return err
		}
	}
	return nil
}

// tokenKubeconfig writes a kubeconfig with a fresh ServiceAccount token (like the one a
// pod would get), so Kruise components run as their real identities under the RBAC of
// artifacts/deploy. Tokens bound to a Node carry the node name in the user's extra
// (authentication.kubernetes.io/node-name), which the node daemon's admission relies on.
func (s *Stack) tokenKubeconfig(ctx context.Context, component, sa, node string) error {
	c, err := s.adminClient()
	if err != nil {
		return err
	}
	expiry := int64(720 * 3600)
	req := &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &expiry}}
	if node != "" {
		req.Spec.BoundObjectRef = &authenticationv1.BoundObjectReference{Kind: "Node", APIVersion: "v1", Name: node}
	}
	tr, err := c.CoreV1().ServiceAccounts(KruiseNamespace).CreateToken(ctx, sa, req, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("cannot create a token for %s/%s: %w", KruiseNamespace, sa, err)
	}
	return s.writeKubeconfig(s.ComponentKubeconfig(component), "system:serviceaccount:"+KruiseNamespace+":"+sa,
		&clientcmdapi.AuthInfo{Token: tr.Status.Token})
}

// ensureAdmissionConfig writes kube-apiserver's --admission-control-config-file. The
// webhook admission plugins take the credentials they present to a webhook from a
// kubeconfig whose users are keyed by the webhook's host:port (k8s.io/apiserver
// pkg/util/webhook/authentication.go). Only kruise-apiserver's host (with HA: the load
// balancer's) gets the certificate: no "*" entry and no current-context, so other
// webhooks are still called without it.
func (s *Stack) ensureAdmissionConfig() error {
	kc := s.ComponentKubeconfig("webhook-client")
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
users:
- name: 127.0.0.1:%d
  user:
    client-certificate: %s
    client-key: %s
`, s.Ports.KruiseAPIServer, s.PKI("kube-apiserver-webhook-client.crt"), s.PKI("kube-apiserver-webhook-client.key"))
	if err := writeAtomic(kc, []byte(cfg), 0o600); err != nil {
		return err
	}
	return writeAtomic(filepath.Join(s.LocalDir, "admission-config.yaml"), []byte(WebhookAdmissionConfig(kc)), 0o600)
}

// WebhookAdmissionConfig is kube-apiserver's --admission-control-config-file content that
// makes both webhook admission plugins present the client certificate of kubeconfig
// (the one the Pod webhook requires) when they call a webhook.
func WebhookAdmissionConfig(kubeconfig string) string {
	return fmt.Sprintf(`apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: MutatingAdmissionWebhook
  configuration:
    apiVersion: apiserver.config.k8s.io/v1
    kind: WebhookAdmissionConfiguration
    kubeConfigFile: %[1]s
- name: ValidatingAdmissionWebhook
  configuration:
    apiVersion: apiserver.config.k8s.io/v1
    kind: WebhookAdmissionConfiguration
    kubeConfigFile: %[1]s
`, kubeconfig)
}
