// Package rawclient sends API requests with plain HTTP over client-go's transport (TLS
// and credentials from a rest.Config, no client-side rate limit), reading whole responses
// and counting their bytes on the wire and decoded.
package rawclient

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"k8s.io/client-go/rest"
)

// Media types.
const (
	JSON       = "application/json"
	Protobuf   = "application/vnd.kubernetes.protobuf"
	MergePatch = "application/merge-patch+json"
)

// Client is one API client with its own connection: client-go shares one transport (and
// so one HTTP/2 connection) between clients of equal config, which would make "32
// clients" 32 streams of a single connection. A Proxy func makes the config uncacheable.
type Client struct {
	HTTP *http.Client
	Host string
}

// NewClients makes n clients, each with its own connection.
func NewClients(cfg *rest.Config, n int) ([]*Client, error) {
	out := make([]*Client, n)
	for i := range out {
		c := rest.CopyConfig(cfg)
		c.Proxy = http.ProxyFromEnvironment
		// We ask for gzip ourselves, to count the bytes on the wire before decoding them.
		c.DisableCompression = true
		hc, err := rest.HTTPClientFor(c)
		if err != nil {
			return nil, fmt.Errorf("building client %d: %w", i, err)
		}
		out[i] = &Client{HTTP: hc, Host: strings.TrimSuffix(cfg.Host, "/")}
	}
	return out, nil
}

// Response of one request: its decoded body when asked for (or on failure), and its
// sizes decoded and on the wire.
type Response struct {
	Code        int
	Body        []byte
	Bytes, Wire int64
}

// Do sends one request, reads the whole response and reports its time to the last byte.
func (c *Client) Do(ctx context.Context, method, path, accept, contentType string, body []byte, keep bool) (Response, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.Host+path, bytes.NewReader(body))
	if err != nil {
		return Response{}, 0, fmt.Errorf("building %s %s: %w", method, path, err)
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("Accept-Encoding", "gzip") // what client-go sends by default
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	start := time.Now()
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return Response{}, time.Since(start), fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	wire := &CountingReader{R: resp.Body}
	var r io.Reader = wire
	if resp.Header.Get("Content-Encoding") == "gzip" {
		gz, err := gzip.NewReader(wire)
		if err != nil {
			return Response{}, time.Since(start), fmt.Errorf("%s %s: gzip: %w", method, path, err)
		}
		r = gz
	}
	out := Response{Code: resp.StatusCode}
	if keep || resp.StatusCode >= 300 {
		out.Body, err = io.ReadAll(r)
		out.Bytes = int64(len(out.Body))
	} else {
		out.Bytes, err = io.Copy(io.Discard, r)
	}
	took := time.Since(start)
	out.Wire = wire.N
	if err != nil {
		return out, took, fmt.Errorf("%s %s: reading: %w", method, path, err)
	}
	if resp.StatusCode >= 300 {
		return out, took, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, truncate(out.Body, 300))
	}
	return out, took, nil
}

// CountingReader counts the bytes read through it.
type CountingReader struct {
	R io.Reader
	N int64
}

func (c *CountingReader) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.N += int64(n)
	return n, err
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}
