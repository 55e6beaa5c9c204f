// Package handler runs the actions of a container handler from the node: exec through
// CRI ExecSync, httpGet and tcpSocket against the pod's IP. The node daemon runs
// preStop hooks (containerrecreate) and PodProbeMarker probes (podprobe) with it, as
// the kubelet runs hooks and probes with one implementation.
package handler

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	grpcstatus "google.golang.org/grpc/status"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/kruise-native/kruise-native/pkg/nodedaemon/criclient"
)

// maxOutput bounds the output an action reports (in messages and probe results).
const maxOutput = 256

// Runner runs handler actions.
type Runner struct {
	Runtime runtimeapi.RuntimeServiceClient
	// HTTP runs httpGet actions; nil uses a client that, as the kubelet's, does not
	// verify the certificates of HTTPS endpoints (pods rarely serve a trusted one on
	// their pod IP). Dial runs tcpSocket actions; nil uses net.Dialer.
	HTTP *http.Client
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// Exec runs cmd in the container (pod status form "<runtime>://<id>") within ctx's
// deadline, and returns its stdout. A non-zero exit is an error carrying the exit code
// and the output (stderr, else stdout).
func (r *Runner) Exec(ctx context.Context, containerID string, cmd []string) (string, error) {
	if len(cmd) == 0 {
		return "", fmt.Errorf("exec has no command")
	}
	req := &runtimeapi.ExecSyncRequest{ContainerId: criclient.SplitContainerID(containerID), Cmd: cmd}
	if dl, ok := ctx.Deadline(); ok {
		req.Timeout = max(int64(time.Until(dl)/time.Second), 1)
	}
	resp, err := r.Runtime.ExecSync(ctx, req)
	if err != nil {
		return "", fmt.Errorf("exec %q: %s", strings.Join(cmd, " "), grpcstatus.Convert(err).Message())
	}
	stdout := truncate(strings.TrimSpace(string(resp.GetStdout())), maxOutput)
	if resp.GetExitCode() != 0 {
		out := strings.TrimSpace(string(resp.GetStderr()))
		if out == "" {
			out = stdout
		}
		return "", fmt.Errorf("exec %q exited with %d: %s", strings.Join(cmd, " "), resp.GetExitCode(), truncate(out, maxOutput))
	}
	return stdout, nil
}

// HTTPGet sends h's request to the pod (or h.Host); a status of 400 or more is an error.
func (r *Runner) HTTPGet(ctx context.Context, podIP string, ports []corev1.ContainerPort, h *corev1.HTTPGetAction) error {
	port, err := ResolvePort(h.Port, ports)
	if err != nil {
		return fmt.Errorf("httpGet: %w", err)
	}
	host := h.Host
	if host == "" {
		host = podIP
	}
	if host == "" {
		return fmt.Errorf("httpGet: the pod has no IP")
	}
	scheme := strings.ToLower(string(h.Scheme))
	if scheme == "" {
		scheme = "http"
	}
	path := h.Path
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	u := &url.URL{Scheme: scheme, Host: net.JoinHostPort(host, strconv.Itoa(port))}
	u, err = u.Parse(path)
	if err != nil {
		return fmt.Errorf("httpGet: path %q: %w", h.Path, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fmt.Errorf("httpGet %s: %w", u, err)
	}
	for _, hdr := range h.HTTPHeaders {
		if strings.EqualFold(hdr.Name, "host") {
			req.Host = hdr.Value
			continue
		}
		req.Header.Add(hdr.Name, hdr.Value)
	}
	client := r.HTTP
	if client == nil {
		client = defaultHTTP
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("httpGet %s: %w", u, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode >= http.StatusBadRequest {
		return fmt.Errorf("httpGet %s: %s", u, resp.Status)
	}
	return nil
}

// TCPSocket opens (and closes) a connection to the pod's (or h.Host's) port.
func (r *Runner) TCPSocket(ctx context.Context, podIP string, ports []corev1.ContainerPort, h *corev1.TCPSocketAction) error {
	port, err := ResolvePort(h.Port, ports)
	if err != nil {
		return fmt.Errorf("tcpSocket: %w", err)
	}
	host := h.Host
	if host == "" {
		host = podIP
	}
	if host == "" {
		return fmt.Errorf("tcpSocket: the pod has no IP")
	}
	dial := r.Dial
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	conn, err := dial(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("tcpSocket %s: %w", addr, err)
	}
	return conn.Close()
}

// ResolvePort turns a handler's port (a number, or the name of one of the container's
// ports) into a number.
func ResolvePort(p intstr.IntOrString, ports []corev1.ContainerPort) (int, error) {
	if p.Type == intstr.Int {
		if p.IntVal <= 0 || p.IntVal > 65535 {
			return 0, fmt.Errorf("invalid port %d", p.IntVal)
		}
		return int(p.IntVal), nil
	}
	if n, err := strconv.Atoi(p.StrVal); err == nil && n > 0 && n <= 65535 {
		return n, nil
	}
	for _, cp := range ports {
		if cp.Name == p.StrVal {
			return int(cp.ContainerPort), nil
		}
	}
	return 0, fmt.Errorf("port %q is not a port of the container", p.StrVal)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// defaultHTTP serves every httpGet action of a Runner without its own client: one
// client for all probe runs and hooks, without keep-alives (as the kubelet's prober),
// so that a run leaves no idle connection behind. Certificates are not verified, as
// the kubelet does not verify them.
var defaultHTTP = &http.Client{Transport: &http.Transport{
	TLSClientConfig:   &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // as the kubelet's
	DisableKeepAlives: true,
}}
