package options

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
)

func completed(t *testing.T, args ...string) *Options {
	t.Helper()
	o := NewOptions()
	fs := pflag.NewFlagSet("kruise-apiserver", pflag.ContinueOnError)
	o.AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	if err := o.Complete(); err != nil {
		t.Fatal(err)
	}
	return o
}

// Without --etcd-servers, storage dials the embedded member over https with the client
// certificate the member trusts.
func TestCompleteDialsEmbeddedEtcdWithClientCertificate(t *testing.T) {
	dir := t.TempDir()
	o := completed(t, "--embedded-etcd-data-dir="+dir, "--embedded-etcd-client-port=3379")
	tr := o.Recommended.Etcd.StorageConfig.Transport
	if got := strings.Join(tr.ServerList, ","); got != "https://127.0.0.1:3379" {
		t.Errorf("ServerList = %s, want https://127.0.0.1:3379", got)
	}
	pki := filepath.Join(dir, "pki")
	for name, got := range map[string]string{
		filepath.Join(pki, "client.crt"): tr.CertFile,
		filepath.Join(pki, "client.key"): tr.KeyFile,
		filepath.Join(pki, "ca.crt"):     tr.TrustedCAFile,
	} {
		if got != name {
			t.Errorf("transport file = %q, want %q", got, name)
		}
	}
}

// --etcd-{cafile,certfile,keyfile} only mean something with --etcd-servers: given with
// the embedded member they would be silently replaced, so they are refused.
func TestValidateRefusesEtcdTLSFlagsWithEmbeddedEtcd(t *testing.T) {
	o := completed(t, "--embedded-etcd-data-dir="+t.TempDir(), "--etcd-certfile=/etc/etcd/client.crt")
	err := o.Validate()
	if err == nil || !strings.Contains(err.Error(), "--etcd-servers only") {
		t.Fatalf("Validate() = %v, want the TLS flags refused without --etcd-servers", err)
	}
}

// With an external etcd, the given TLS files are kept as they are.
func TestCompleteKeepsExternalEtcdTLS(t *testing.T) {
	o := completed(t, "--etcd-servers=https://etcd-0:2379", "--etcd-certfile=/c.crt", "--etcd-keyfile=/c.key", "--etcd-cafile=/ca.crt")
	tr := o.Recommended.Etcd.StorageConfig.Transport
	if tr.CertFile != "/c.crt" || tr.KeyFile != "/c.key" || tr.TrustedCAFile != "/ca.crt" {
		t.Errorf("transport = %+v, want the given files", tr)
	}
	if o.embedded {
		t.Error("embedded etcd chosen despite --etcd-servers")
	}
}

// The Pod webhook's answers carry SidecarSet contents: its path is authorized like any
// other, never skipped (only kube-apiserver's webhook user is granted it, by RBAC).
func TestPodWebhookPathIsAuthorized(t *testing.T) {
	o := NewOptions()
	for _, p := range o.Recommended.Authorization.AlwaysAllowPaths {
		if p == podwebhook.MutatePath || strings.HasPrefix(podwebhook.MutatePath, strings.TrimSuffix(p, "*")) && strings.HasSuffix(p, "*") {
			t.Errorf("authorization always allows %q, which covers %s", p, podwebhook.MutatePath)
		}
	}
}

// kruise-apiserver serves HTTP/1.1 unless told otherwise; HTTP/2, when turned on, keeps
// the generic server's 1000 streams per connection.
func TestHTTP2Serving(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		disabled bool
	}{
		{name: "default", disabled: true},
		{name: "turned on", args: []string{"--disable-http2-serving=false"}, disabled: false},
		{name: "said explicitly", args: []string{"--disable-http2-serving"}, disabled: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := NewOptions()
			fs := pflag.NewFlagSet("kruise-apiserver", pflag.ContinueOnError)
			o.AddFlags(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			s := o.Recommended.SecureServing
			if s.DisableHTTP2Serving != tc.disabled {
				t.Errorf("DisableHTTP2Serving = %t, want %t", s.DisableHTTP2Serving, tc.disabled)
			}
			if s.HTTP2MaxStreamsPerConnection != 1000 {
				t.Errorf("HTTP2MaxStreamsPerConnection = %d, want 1000", s.HTTP2MaxStreamsPerConnection)
			}
		})
	}
}
