package etcd

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// rangeAll POSTs etcd's JSON gateway range over every key, the read an attacker would
// start with, and returns the status and body (or the transport error).
func rangeAll(client *http.Client, base string) (int, string, error) {
	// key "\x00" with range_end "\x00" is the whole keyspace (base64 "AA==").
	resp, err := client.Post(base+"/v3/kv/range", "application/json", strings.NewReader(`{"key":"AA==","range_end":"AA=="}`))
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return resp.StatusCode, string(body), nil
}

// members lists the cluster's members, as a peer would ask for them.
func members(client *http.Client, base string) (int, string, error) {
	resp, err := client.Get(base + "/members")
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return resp.StatusCode, string(body), nil
}

// The member serves TLS with client certificates only, on its client and on its peer
// port: plain HTTP and TLS without a certificate from its CA are refused, the storage
// client's certificate is accepted.
func TestStartRequiresClientCertificates(t *testing.T) {
	o := Options{
		DataDir:       filepath.Join(t.TempDir(), "etcd"),
		ClientPort:    freePort(t),
		PeerPort:      freePort(t),
		UnsafeNoFsync: true,
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopped, err := Start(ctx, o)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		<-stopped
	})
	if !strings.HasPrefix(o.ClientURL(), "https://127.0.0.1:") {
		t.Errorf("ClientURL() = %s, want https on loopback", o.ClientURL())
	}

	pki := o.PKI()
	caPEM, err := os.ReadFile(pki.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(caPEM)
	clientCert, err := tls.LoadX509KeyPair(pki.ClientCertFile(), pki.ClientKeyFile())
	if err != nil {
		t.Fatal(err)
	}
	client := func(cfg *tls.Config) *http.Client {
		return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: cfg}}
	}

	// What a plain-HTTP listener would answer: the key range on the client port, the
	// member list on the peer port (which serves no /v3/kv/range, so a range there
	// would be refused even by a plain-HTTP peer listener).
	plainRead := map[int]func(*http.Client, string) (int, string, error){o.ClientPort: rangeAll, o.PeerPort: members}
	for _, port := range []int{o.ClientPort, o.PeerPort} {
		plain := fmt.Sprintf("http://127.0.0.1:%d", port)
		if code, body, err := plainRead[port](client(nil), plain); err == nil && code < 300 {
			t.Errorf("plain HTTP read on port %d answered %d: %s", port, code, body)
		}
		secure := fmt.Sprintf("https://127.0.0.1:%d", port)
		if code, body, err := rangeAll(client(&tls.Config{RootCAs: roots}), secure); err == nil {
			t.Errorf("TLS without a client certificate on port %d answered %d: %s", port, code, body)
		}
		// A certificate from another CA is no better than none.
		other := PKIFor(t.TempDir())
		if _, err := other.Ensure(time.Now()); err != nil {
			t.Fatal(err)
		}
		foreign, err := tls.LoadX509KeyPair(other.ClientCertFile(), other.ClientKeyFile())
		if err != nil {
			t.Fatal(err)
		}
		if code, body, err := rangeAll(client(&tls.Config{RootCAs: roots, Certificates: []tls.Certificate{foreign}}), secure); err == nil {
			t.Errorf("TLS with a foreign client certificate on port %d answered %d: %s", port, code, body)
		}
	}

	code, body, err := rangeAll(client(&tls.Config{RootCAs: roots, Certificates: []tls.Certificate{clientCert}}), o.ClientURL())
	if err != nil || code != http.StatusOK {
		t.Fatalf("the storage client's certificate: %d %s %v, want 200", code, body, err)
	}
}

// storageClient is the API server's view of the member: TLS with the client certificate.
func storageClient(t *testing.T, pki PKI) *http.Client {
	t.Helper()
	caPEM, err := os.ReadFile(pki.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(caPEM)
	cert, err := tls.LoadX509KeyPair(pki.ClientCertFile(), pki.ClientKeyFile())
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{cert}}}}
}

// The member keeps only SnapshotCatchUpEntries applied raft entries in memory: writes
// several times that many (so the in-memory log is compacted again and again), stop the
// member, start it again from its data dir, and every write is still there.
func TestWritesSurviveRestartPastRaftLogCompaction(t *testing.T) {
	o := Options{
		DataDir:       filepath.Join(t.TempDir(), "etcd"),
		ClientPort:    freePort(t),
		PeerPort:      freePort(t),
		UnsafeNoFsync: true, // a clean stop flushes; this is about what the member replays
	}
	start := func() (stop func()) {
		ctx, cancel := context.WithCancel(context.Background())
		stopped, err := Start(ctx, o)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		return func() { cancel(); <-stopped }
	}
	stop := start()
	client := storageClient(t, o.PKI())
	writes := 3*SnapshotCatchUpEntries + 150
	for i := range writes {
		key := base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "/test/k%04d", i))
		val := base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "v%d", i))
		resp, err := client.Post(o.ClientURL()+"/v3/kv/put", "application/json",
			strings.NewReader(fmt.Sprintf(`{"key":%q,"value":%q}`, key, val)))
		if err != nil {
			stop()
			t.Fatalf("put %d: %v", i, err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			stop()
			t.Fatalf("put %d: HTTP %d", i, resp.StatusCode)
		}
	}
	stop()

	stop = start()
	defer stop()
	prefix := base64.StdEncoding.EncodeToString([]byte("/test/"))
	end := base64.StdEncoding.EncodeToString([]byte("/test0")) // '0' follows '/'
	resp, err := client.Post(o.ClientURL()+"/v3/kv/range", "application/json",
		strings.NewReader(fmt.Sprintf(`{"key":%q,"range_end":%q,"count_only":true}`, prefix, end)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct {
		Count string `json:"count"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got.Count != strconv.Itoa(writes) {
		t.Errorf("after a restart the member holds %s keys, want %d", got.Count, writes)
	}
}
