package localstack

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Kubernetes namespace and Service of the Kruise components, and the cluster's networks.
const (
	KruiseNamespace = "kruise-system"
	kruiseService   = "kruise-apiserver"
	serviceCIDR     = "10.96.0.0/16"
	serviceIP       = "10.96.0.1"
	podCIDR         = "10.244.0.0/16"
	// the user kube-apiserver calls the Pod webhook as (its client certificate's CN)
	webhookClientUser = "kube-apiserver-webhook-client"
)

// KruiseAPIServices are the APIServices kruise-apiserver may serve; only those it serves
// are registered.
var KruiseAPIServices = []string{"v1beta1.apps.kruise.io", "v1alpha1.apps.kruise.io", "v1beta1.policy.kruise.io", "v1alpha1.policy.kruise.io"}

// Stack is one local stack, running or not, in Options.LocalDir.
type Stack struct {
	Options
	Ports Ports

	mu      sync.Mutex
	started map[string]chan struct{} // processes this Stack started: closed when reaped
	client  kubernetes.Interface     // admin client, once kube-apiserver is up
}

// New describes the stack of o; nothing is started.
func New(o Options) *Stack {
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.Err == nil {
		o.Err = o.Out
	}
	if o.WaitTimeout == 0 {
		o.WaitTimeout = 90 * time.Second
	}
	if o.StopTimeout == 0 {
		o.StopTimeout = 30 * time.Second
	}
	return &Stack{Options: o, Ports: layoutPorts(o.PortBase, o.Nodes, o.HA), started: map[string]chan struct{}{}}
}

// Paths under LocalDir.

// Kubeconfig is the admin (O=system:masters) kubeconfig.
func (s *Stack) Kubeconfig() string { return filepath.Join(s.LocalDir, "kubeconfig") }

// ComponentKubeconfig is the kubeconfig a component runs with.
func (s *Stack) ComponentKubeconfig(name string) string {
	return filepath.Join(s.LocalDir, "kubeconfigs", name+".kubeconfig")
}

// PKI is a file of the stack's pki directory, e.g. PKI("kruise-ca.crt").
func (s *Stack) PKI(file string) string { return filepath.Join(s.LocalDir, "pki", file) }

func (s *Stack) bin(name string) string { return filepath.Join(s.BinDir, name) }

func (s *Stack) haveBin(name string) bool {
	st, err := os.Stat(s.bin(name))
	return err == nil && !st.IsDir()
}

// RESTConfig is the admin client configuration.
func (s *Stack) RESTConfig() (*rest.Config, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", s.Kubeconfig())
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", s.Kubeconfig(), err)
	}
	return cfg, nil
}

func (s *Stack) adminClient() (kubernetes.Interface, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client != nil {
		return s.client, nil
	}
	cfg, err := s.RESTConfig()
	if err != nil {
		return nil, err
	}
	cfg.QPS, cfg.Burst = 100, 200
	c, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	s.client = c
	return c, nil
}

// output

func (s *Stack) logf(format string, args ...any) {
	fmt.Fprintf(s.Out, "local-up: "+format+"\n", args...)
}

func (s *Stack) downf(format string, args ...any) {
	fmt.Fprintf(s.Out, "local-down: "+format+"\n", args...)
}

// failComponent prints the end of the component's log and returns an error naming it.
func (s *Stack) failComponent(name, msg string) error {
	s.printLogTail(name, 40)
	return fmt.Errorf("%s: %s (log: %s)", name, msg, s.LogPath(name))
}

func (s *Stack) printLogTail(name string, n int) {
	f, err := os.Open(s.LogPath(name))
	if err != nil {
		return
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if len(lines) > n {
			lines = lines[1:]
		}
	}
	fmt.Fprintf(s.Err, "----- last %d lines of %s -----\n%s\n-----\n", n, s.LogPath(name), strings.Join(lines, "\n"))
}

// waiting

// waitReady polls check until it succeeds, the component exits, or WaitTimeout passes.
func (s *Stack) waitReady(ctx context.Context, name, what string, check func(context.Context) error) error {
	if err := s.poll(ctx, name, what, check); err != nil {
		return err
	}
	s.logf("%s is ready (%s)", name, what)
	return nil
}

func (s *Stack) poll(ctx context.Context, name, what string, check func(context.Context) error) error {
	deadline := time.Now().Add(s.WaitTimeout)
	for {
		cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		err := check(cctx)
		cancel()
		if err == nil {
			return nil
		}
		if !s.alive(name) {
			return s.failComponent(name, "exited before it was ready")
		}
		if time.Now().After(deadline) {
			return s.failComponent(name, fmt.Sprintf("not ready after %s (waiting for %s: %v)", s.WaitTimeout, what, err))
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// waitAlive is for programs without a known health endpoint: it catches a process that
// exits at once (bad flag, bad kubeconfig) but cannot tell that it works.
func (s *Stack) waitAlive(names ...string) error {
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		for _, n := range names {
			if !s.alive(n) {
				return s.failComponent(n, "exited right after start")
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	for _, n := range names {
		s.logf("%s is running (no health endpoint known; check %s)", n, s.LogPath(n))
	}
	return nil
}

// HTTP health checks

// tlsClient trusts caFile and, when certName is set, presents pki/<certName>.{crt,key}.
func (s *Stack) tlsClient(caFile, certName string) (*http.Client, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if caFile != "" {
		pem, err := os.ReadFile(s.PKI(caFile))
		if err != nil {
			return nil, err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("no certificate in %s", s.PKI(caFile))
		}
		cfg.RootCAs = pool
	}
	if certName != "" {
		cert, err := tls.LoadX509KeyPair(s.PKI(certName+".crt"), s.PKI(certName+".key"))
		if err != nil {
			return nil, err
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return &http.Client{Timeout: 3 * time.Second, Transport: &http.Transport{TLSClientConfig: cfg, DisableKeepAlives: true}}, nil
}

// GetOK checks that url answers 2xx (the readiness and health checks of the local
// stack and of test/cluster's real node).
func GetOK(ctx context.Context, c *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s: %s: %s", url, resp.Status, strings.TrimSpace(string(body)))
	}
	return nil
}

// httpCheck returns a check of url with the given client settings.
func (s *Stack) httpCheck(url, caFile, certName string) (func(context.Context) error, error) {
	c := &http.Client{Timeout: 3 * time.Second}
	if caFile != "" {
		var err error
		if c, err = s.tlsClient(caFile, certName); err != nil {
			return nil, err
		}
	}
	return func(ctx context.Context) error { return GetOK(ctx, c, url) }, nil
}
