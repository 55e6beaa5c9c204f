package etcd

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func readAll(t *testing.T, p PKI) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, f := range []string{p.CAFile(), p.ServerCertFile(), p.ServerKeyFile(), p.ClientCertFile(), p.ClientKeyFile()} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = b
	}
	return out
}

func TestEnsureGeneratesUsableCertificates(t *testing.T) {
	now := time.Now()
	p := PKIFor(filepath.Join(t.TempDir(), "data"))
	generated, err := p.Ensure(now)
	if err != nil {
		t.Fatal(err)
	}
	if !generated {
		t.Fatal("Ensure on an empty directory reported no generation")
	}

	// Private material is owner-only; the CA key is never written.
	if fi, err := os.Stat(p.Dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("%s mode = %v (%v), want 0700", p.Dir, fi.Mode().Perm(), err)
	}
	for _, f := range []string{p.ServerKeyFile(), p.ClientKeyFile()} {
		if fi, err := os.Stat(f); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode = %v (%v), want 0600", f, fi.Mode().Perm(), err)
		}
	}
	entries, err := os.ReadDir(p.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 5 {
		t.Errorf("pki dir holds %v, want exactly ca.crt, server.{crt,key}, client.{crt,key}", names)
	}

	roots := x509.NewCertPool()
	caPEM, err := os.ReadFile(p.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	roots.AppendCertsFromPEM(caPEM)
	server, err := tls.LoadX509KeyPair(p.ServerCertFile(), p.ServerKeyFile())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"127.0.0.1", "localhost"} {
		if _, err := server.Leaf.Verify(x509.VerifyOptions{DNSName: name, Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}); err != nil {
			t.Errorf("server certificate for %s: %v", name, err)
		}
	}
	if err := server.Leaf.VerifyHostname("10.0.0.1"); err == nil {
		t.Error("server certificate is valid for 10.0.0.1; want loopback only")
	}
	client, err := tls.LoadX509KeyPair(p.ClientCertFile(), p.ClientKeyFile())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Leaf.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Errorf("client certificate: %v", err)
	}
	if _, err := client.Leaf.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}); err == nil {
		t.Error("client certificate also serves; want clientAuth only")
	}
	if client.Leaf.Subject.CommonName != clientCommonName {
		t.Errorf("client CN = %q, want %q", client.Leaf.Subject.CommonName, clientCommonName)
	}
}

func TestEnsureReusesCertificates(t *testing.T) {
	now := time.Now()
	p := PKIFor(t.TempDir())
	if _, err := p.Ensure(now); err != nil {
		t.Fatal(err)
	}
	before := readAll(t, p)
	generated, err := p.Ensure(now.Add(24 * time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if generated {
		t.Error("a restart regenerated valid certificates")
	}
	after := readAll(t, p)
	for f := range before {
		if !bytes.Equal(before[f], after[f]) {
			t.Errorf("%s changed on a restart", f)
		}
	}
}

func TestEnsureRegeneratesUnusableCertificates(t *testing.T) {
	now := time.Now()
	for name, spoil := range map[string]func(t *testing.T, p PKI){
		"missing client key": func(t *testing.T, p PKI) {
			if err := os.Remove(p.ClientKeyFile()); err != nil {
				t.Fatal(err)
			}
		},
		"server signed by another CA": func(t *testing.T, p PKI) {
			other := PKIFor(t.TempDir())
			if _, err := other.Ensure(now); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{serverCertFile, serverKeyFile} {
				b, err := os.ReadFile(filepath.Join(other.Dir, f))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(p.Dir, f), b, 0o600); err != nil {
					t.Fatal(err)
				}
			}
		},
		"garbage CA": func(t *testing.T, p PKI) {
			if err := os.WriteFile(p.CAFile(), []byte("not a certificate"), 0o600); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			p := PKIFor(t.TempDir())
			if _, err := p.Ensure(now); err != nil {
				t.Fatal(err)
			}
			spoil(t, p)
			generated, err := p.Ensure(now)
			if err != nil {
				t.Fatal(err)
			}
			if !generated {
				t.Fatal("unusable certificates were kept")
			}
			if err := p.check(now); err != nil {
				t.Fatalf("regenerated set does not check: %v", err)
			}
		})
	}

	t.Run("expiring within a year", func(t *testing.T) {
		p := PKIFor(t.TempDir())
		if _, err := p.Ensure(now); err != nil {
			t.Fatal(err)
		}
		before := readAll(t, p)
		later := now.Add(certValidity - renewBefore + 24*time.Hour)
		generated, err := p.Ensure(later)
		if err != nil {
			t.Fatal(err)
		}
		if !generated {
			t.Fatal("certificates expiring within renewBefore were kept")
		}
		if bytes.Equal(before[caCertFile], readAll(t, p)[caCertFile]) {
			t.Error("CA unchanged after regeneration")
		}
	})
}
