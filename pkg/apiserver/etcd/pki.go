package etcd

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"

	certutil "k8s.io/client-go/util/cert"
	"k8s.io/client-go/util/keyutil"
)

// The embedded member's certificates live in <data dir>/pki and are kept across restarts.
// They are generated once rather than at every start because a second kruise-apiserver
// started by mistake on the same data dir (it then fails on etcd's lock) must not swap
// the CA under the running member and cut off its storage client. Keeping them costs no
// secrecy: whoever can read these keys can read the etcd database next to them. The
// CA's private key is never written: all three are regenerated together, so nothing
// is ever signed later.
const (
	pkiDirName = "pki"
	caCertFile = "ca.crt"
	// The server certificate also authenticates the member on its own peer port, so it
	// carries clientAuth as well as serverAuth.
	serverCertFile = "server.crt"
	serverKeyFile  = "server.key"
	// The client certificate is kruise-apiserver's storage client.
	clientCertFile = "client.crt"
	clientKeyFile  = "client.key"

	clientCommonName = "kruise-apiserver"
	// certValidity is long because nothing rotates these certificates while the server
	// runs: the storage client reads its certificate once.
	certValidity = 10 * 365 * 24 * time.Hour
	// renewBefore: a start finding less than this left regenerates all three, so a
	// server running on after that start still has a year.
	renewBefore = 365 * 24 * time.Hour
)

// serverIPs and serverDNSNames are the names the member is dialled at: it listens on
// loopback only.
var (
	serverIPs      = []net.IP{net.IPv4(127, 0, 0, 1)}
	serverDNSNames = []string{"localhost"}
)

// PKI holds the paths of the embedded member's certificates.
type PKI struct {
	Dir string
}

// PKIFor returns the certificate paths of the member whose data lives in dataDir.
func PKIFor(dataDir string) PKI { return PKI{Dir: filepath.Join(dataDir, pkiDirName)} }

// CAFile is the CA both sides trust.
func (p PKI) CAFile() string { return filepath.Join(p.Dir, caCertFile) }

// ServerCertFile and ServerKeyFile are the member's serving (and peer) certificate.
func (p PKI) ServerCertFile() string { return filepath.Join(p.Dir, serverCertFile) }
func (p PKI) ServerKeyFile() string  { return filepath.Join(p.Dir, serverKeyFile) }

// ClientCertFile and ClientKeyFile are the storage client's certificate.
func (p PKI) ClientCertFile() string { return filepath.Join(p.Dir, clientCertFile) }
func (p PKI) ClientKeyFile() string  { return filepath.Join(p.Dir, clientKeyFile) }

// Ensure keeps usable certificates and otherwise (missing, unreadable, not chaining,
// wrong names or usages, or expiring within renewBefore) generates new ones. It
// reports whether it generated them.
func (p PKI) Ensure(now time.Time) (generated bool, err error) {
	if err := os.MkdirAll(p.Dir, 0o700); err != nil {
		return false, fmt.Errorf("creating %s: %w", p.Dir, err)
	}
	// An existing directory may have been created wider.
	if err := os.Chmod(p.Dir, 0o700); err != nil {
		return false, fmt.Errorf("restricting %s: %w", p.Dir, err)
	}
	if p.check(now) == nil {
		return false, nil
	}
	if err := p.generate(now); err != nil {
		return false, fmt.Errorf("generating embedded etcd certificates in %s: %w", p.Dir, err)
	}
	if err := p.check(now); err != nil {
		return false, fmt.Errorf("embedded etcd certificates just generated in %s are unusable: %w", p.Dir, err)
	}
	return true, nil
}

// check verifies the stored certificates as etcd and the storage client will use them.
func (p PKI) check(now time.Time) error {
	cas, err := certutil.CertsFromFile(p.CAFile())
	if err != nil {
		return err
	}
	roots := x509.NewCertPool()
	for _, ca := range cas {
		roots.AddCert(ca)
	}
	until := now.Add(renewBefore)
	for _, ca := range cas {
		if until.After(ca.NotAfter) {
			return fmt.Errorf("CA %q expires at %s", ca.Subject.CommonName, ca.NotAfter)
		}
	}
	server, err := loadLeaf(p.ServerCertFile(), p.ServerKeyFile(), until)
	if err != nil {
		return err
	}
	for _, usage := range []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth} {
		if _, err := server.Verify(x509.VerifyOptions{Roots: roots, CurrentTime: now, KeyUsages: []x509.ExtKeyUsage{usage}}); err != nil {
			return fmt.Errorf("%s: %w", p.ServerCertFile(), err)
		}
	}
	for _, ip := range serverIPs {
		if err := server.VerifyHostname(ip.String()); err != nil {
			return fmt.Errorf("%s: %w", p.ServerCertFile(), err)
		}
	}
	for _, name := range serverDNSNames {
		if err := server.VerifyHostname(name); err != nil {
			return fmt.Errorf("%s: %w", p.ServerCertFile(), err)
		}
	}
	client, err := loadLeaf(p.ClientCertFile(), p.ClientKeyFile(), until)
	if err != nil {
		return err
	}
	if _, err := client.Verify(x509.VerifyOptions{Roots: roots, CurrentTime: now, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		return fmt.Errorf("%s: %w", p.ClientCertFile(), err)
	}
	return nil
}

// loadLeaf loads a certificate with its key (which must match) and checks it is still
// valid at until.
func loadLeaf(certFile, keyFile string, until time.Time) (*x509.Certificate, error) {
	kp, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, err
	}
	if until.After(kp.Leaf.NotAfter) {
		return nil, fmt.Errorf("%s expires at %s", certFile, kp.Leaf.NotAfter)
	}
	return kp.Leaf, nil
}

// generate writes a new CA, server and client certificate. Files are replaced one by
// one; a crash in between leaves a set that check rejects, so the next start redoes it.
func (p PKI) generate(now time.Time) error {
	caKey, err := newKey()
	if err != nil {
		return err
	}
	ca, err := newCA(caKey, now)
	if err != nil {
		return fmt.Errorf("CA certificate: %w", err)
	}
	serverPEM, serverKeyPEM, err := signLeaf(ca, caKey, now, pkix.Name{CommonName: "kruise-apiserver-embedded-etcd"},
		[]x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}, serverDNSNames, serverIPs)
	if err != nil {
		return fmt.Errorf("server certificate: %w", err)
	}
	clientPEM, clientKeyPEM, err := signLeaf(ca, caKey, now, pkix.Name{CommonName: clientCommonName},
		[]x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, nil, nil)
	if err != nil {
		return fmt.Errorf("client certificate: %w", err)
	}
	for _, f := range []struct {
		path string
		data []byte
		mode os.FileMode
	}{
		{p.ServerKeyFile(), serverKeyPEM, 0o600},
		{p.ServerCertFile(), serverPEM, 0o644},
		{p.ClientKeyFile(), clientKeyPEM, 0o600},
		{p.ClientCertFile(), clientPEM, 0o644},
		{p.CAFile(), encodeCert(ca.Raw), 0o644},
	} {
		if err := writeFileAtomic(f.path, f.data, f.mode); err != nil {
			return err
		}
	}
	return nil
}

// newCA returns a self-signed CA certificate valid from now for certValidity (not the
// library helper: its validity follows the wall clock, and Ensure's callers pass the time).
func newCA(key crypto.Signer, now time.Time) (*x509.Certificate, error) {
	serial, err := newSerial()
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "kruise-apiserver-embedded-etcd-ca"},
		NotBefore:             now.Add(-time.Hour).UTC(),
		NotAfter:              now.Add(certValidity).UTC(),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, err
	}
	return x509.ParseCertificate(der)
}

// newSerial returns a random serial number in [1, 2^63).
func newSerial() (*big.Int, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(math.MaxInt64))
	if err != nil {
		return nil, err
	}
	return n.Add(n, big.NewInt(1)), nil
}

// signLeaf returns a PEM certificate signed by ca and its PEM private key.
func signLeaf(ca *x509.Certificate, caKey crypto.Signer, now time.Time, subject pkix.Name,
	usages []x509.ExtKeyUsage, dnsNames []string, ips []net.IP) (certPEM, keyPEM []byte, err error) {
	key, err := newKey()
	if err != nil {
		return nil, nil, err
	}
	serial, err := newSerial()
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               subject,
		NotBefore:             now.Add(-time.Hour).UTC(),
		NotAfter:              minTime(now.Add(certValidity), ca.NotAfter).UTC(),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           slices.Clone(usages),
		BasicConstraintsValid: true,
		DNSNames:              dnsNames,
		IPAddresses:           ips,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, key.Public(), caKey)
	if err != nil {
		return nil, nil, err
	}
	keyPEM, err = keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		return nil, nil, err
	}
	return encodeCert(der), keyPEM, nil
}

// newKey returns an ECDSA P-256 key: as strong as RSA-3072 for TLS and generated in
// microseconds, so a first start does not wait on key generation.
func newKey() (*ecdsa.PrivateKey, error) {
	return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
}

func encodeCert(der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: certutil.CertificateBlockType, Bytes: der})
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// writeFileAtomic replaces path with data and mode: readers never see half a file, and a
// key is never readable with a wider mode even for a moment (the temporary file is 0600).
func writeFileAtomic(path string, data []byte, mode os.FileMode) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(f.Name())
		}
	}()
	_, werr := f.Write(data)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Chmod(f.Name(), mode); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
