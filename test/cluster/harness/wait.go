package harness

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"
)

// WaitFor polls cond every interval until it returns nil, the timeout passes or ctx ends;
// the error names what was awaited and cond's last answer.
func WaitFor(ctx context.Context, timeout, interval time.Duration, what string, cond func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var last error
	for {
		if last = cond(ctx); last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: not within %s: %w", what, timeout, last)
		case <-time.After(interval):
		}
	}
}

// httpsClient trusts caFile and, with a client certificate name, presents l's pki/<name>.
func (l Layout) httpsClient(caFile, client string) (*http.Client, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, err
		}
		tc.RootCAs = x509.NewCertPool()
		tc.RootCAs.AppendCertsFromPEM(pem)
	}
	if client != "" {
		cert, err := tls.LoadX509KeyPair(l.pki(client+".crt"), l.pki(client+".key"))
		if err != nil {
			return nil, err
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: tc}}, nil
}

// alive wraps a readiness condition: a process that exited fails at once, with its log's
// tail.
func (c *Cluster) alive(p *Proc, cond func(context.Context) error) func(context.Context) error {
	return func(ctx context.Context) error {
		if done, err := p.Exited(); done {
			return &exitedError{name: p.Name, err: err, tail: tail(c.Layout.Log(p.Name), 30)}
		}
		return cond(ctx)
	}
}

type exitedError struct {
	name string
	err  error
	tail string
}

func (e *exitedError) Error() string {
	return fmt.Sprintf("%s exited (%v); its log ends:\n%s", e.name, e.err, e.tail)
}

// waitProc polls cond until it holds; a process that exits ends the wait at once.
func (c *Cluster) waitProc(ctx context.Context, p *Proc, timeout time.Duration, what string, cond func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	check := c.alive(p, cond)
	var last error
	for {
		last = check(ctx)
		if last == nil {
			return nil
		}
		if _, ok := last.(*exitedError); ok {
			return last
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: not within %s: %w\n%s's log ends:\n%s", what, timeout, last, p.Name, tail(c.Layout.Log(p.Name), 20))
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// tail is the last n lines of a file.
func tail(file string, n int) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
