package framework

import (
	"crypto/tls"
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
	"time"
)

// KruiseEtcd is a client of kruise-apiserver's embedded etcd that presents the storage
// client's certificate (from <embedded-etcd-data-dir>/pki), and the base URL of its
// client port: what a test needs to read or write what the server stores. It skips
// the test when the stack's kruise-apiserver runs without an embedded etcd.
func (c *Cluster) KruiseEtcd(t testing.TB) (client *http.Client, baseURL string) {
	t.Helper()
	port, ok := c.Ports["kruise-etcd"]
	if !ok {
		t.Skip("kruise-apiserver runs without its embedded etcd in this stack")
	}
	pki := filepath.Join(c.LocalDir, "kruise-etcd", "pki")
	cert, err := tls.LoadX509KeyPair(filepath.Join(pki, "client.crt"), filepath.Join(pki, "client.key"))
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		// The test talks to its own stack's etcd; the client certificate is what counts.
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true, Certificates: []tls.Certificate{cert}}, //nolint:gosec
	}}, fmt.Sprintf("https://127.0.0.1:%d", port)
}
