package aggregation

import (
	"context"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// etcdCall sends one request to etcd (a JSON gateway call such as POST /v3/kv/range,
// or a peer endpoint such as GET /members) and returns the status and body, or the
// transport error.
func etcdCall(client *http.Client, method, url, body string) (int, string, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	return resp.StatusCode, string(b), nil
}

// kruise-apiserver's embedded etcd answers only clients with a certificate from its
// own CA, on its client and its peer port: a plain-HTTP read or delete, and TLS
// without a client certificate, are refused, and the CloneSet stays. The storage
// client's certificate (in <embedded-etcd-data-dir>/pki) is accepted, which shows
// the refusals come from authentication rather than a closed port.
func TestEmbeddedEtcdRefusesUnauthenticatedClients(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	kruise := kruiseclient.NewForConfigOrDie(c.Config)
	if _, err := kruise.AppsV1alpha1().CloneSets(ns).Create(ctx, cloneSet("protected"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	key := base64.StdEncoding.EncodeToString([]byte("/registry/kruise.io/"))
	prefixEnd := base64.StdEncoding.EncodeToString([]byte("/registry/kruise.io0"))
	rangeBody := fmt.Sprintf(`{"key":%q,"range_end":%q,"keys_only":true}`, key, prefixEnd)
	deleteBody := fmt.Sprintf(`{"key":%q,"range_end":%q}`, key, prefixEnd)

	attackers := []struct {
		name, scheme string
		client       *http.Client
	}{
		{"plain HTTP", "http", &http.Client{Timeout: 5 * time.Second}},
		// An attacker does not verify the server; what matters is what it answers.
		{"TLS without a client certificate", "https", &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
			TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
		}}},
	}
	// The client port's read and delete, and the peer port's member list (which a
	// plain-HTTP peer listener hands to anyone).
	calls := []struct{ port, method, path, body string }{
		{"kruise-etcd", http.MethodPost, "/v3/kv/range", rangeBody},
		{"kruise-etcd", http.MethodPost, "/v3/kv/deleterange", deleteBody},
		{"kruise-etcd-peer", http.MethodGet, "/members", ""},
	}
	for _, call := range calls {
		p, ok := c.Ports[call.port]
		if !ok {
			t.Fatalf("no %s port in %v", call.port, c.Ports)
		}
		for _, a := range attackers {
			url := fmt.Sprintf("%s://127.0.0.1:%d%s", a.scheme, p, call.path)
			code, body, err := etcdCall(a.client, call.method, url, call.body)
			if err == nil && code < 300 {
				t.Errorf("%s %s %s, %s: %d %.300s, want refused", call.port, call.method, call.path, a.name, code, body)
			} else {
				t.Logf("%s %s %s, %s: refused (%d %.80q %v)", call.port, call.method, call.path, a.name, code, body, err)
			}
		}
	}
	if _, err := kruise.AppsV1alpha1().CloneSets(ns).Get(ctx, "protected", metav1.GetOptions{}); err != nil {
		t.Fatalf("the CloneSet after the unauthenticated calls: %v", err)
	}

	// The storage client's certificate is let in.
	withCert, etcdURL := c.KruiseEtcd(t)
	code, body, err := etcdCall(withCert, http.MethodPost, etcdURL+"/v3/kv/range", rangeBody)
	if err != nil || code != http.StatusOK || !strings.Contains(body, `"count"`) {
		t.Fatalf("range with the storage client's certificate: %d %.300s %v, want 200 with keys", code, body, err)
	}
}
