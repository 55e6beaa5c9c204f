package containerrecreate

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

	"google.golang.org/grpc/codes"
	grpcstatus "google.golang.org/grpc/status"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/criclient"
)

// minStopGrace is what StopContainer gets at least after a preStop hook used up the
// grace period (the kubelet's minimum, so the container still gets its SIGTERM).
const minStopGrace = 2 * time.Second

// Executor acts on containers through the CRI runtime.
type Executor struct {
	Runtime runtimeapi.RuntimeServiceClient
	// HTTP runs httpGet hooks; nil uses a client that, as the kubelet's, does not
	// verify the certificates of HTTPS hooks (pods rarely serve a trusted one on
	// their pod IP). Dial runs tcpSocket hooks; nil uses net.Dialer.
	HTTP *http.Client
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// StopResult is what stopping one container came to.
type StopResult struct {
	// HookErr is a failed preStop hook; the container is stopped anyway, as the
	// kubelet does.
	HookErr error
	// Err is a failed stop: the container was not stopped.
	Err error
}

// Exited reports whether the runtime no longer runs the container (pod status form
// "<runtime>://<id>"): it exited, or is gone.
func (e *Executor) Exited(ctx context.Context, containerID string) (bool, error) {
	resp, err := e.Runtime.ContainerStatus(ctx, &runtimeapi.ContainerStatusRequest{ContainerId: criclient.SplitContainerID(containerID)})
	if grpcstatus.Code(err) == codes.NotFound {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("status of container %s: %w", containerID, err)
	}
	return resp.GetStatus().GetState() == runtimeapi.ContainerState_CONTAINER_EXITED, nil
}

// Stop runs o's preStop hook, then stops the container with what is left of the grace
// period (at least minStopGrace).
func (e *Executor) Stop(ctx context.Context, pod *corev1.Pod, o StopOrder) StopResult {
	logger := klog.FromContext(ctx).WithValues("container", o.Name, "containerID", o.ContainerID)
	var res StopResult
	start := time.Now()
	if o.PreStop != nil {
		hookCtx, cancel := context.WithTimeout(ctx, o.GracePeriod)
		res.HookErr = e.runHook(hookCtx, pod, o)
		cancel()
		if res.HookErr != nil {
			logger.Info("PreStop hook failed, stopping anyway", "err", res.HookErr)
		}
	}
	grace := max(o.GracePeriod-time.Since(start), minStopGrace)
	timeout := int64((grace + time.Second - 1) / time.Second)
	// The call returns once the container stopped, within the grace period (the
	// runtime kills it then); a little slack for the call itself.
	stopCtx, cancel := context.WithTimeout(ctx, grace+10*time.Second)
	defer cancel()
	_, err := e.Runtime.StopContainer(stopCtx, &runtimeapi.StopContainerRequest{
		ContainerId: criclient.SplitContainerID(o.ContainerID), Timeout: timeout,
	})
	switch {
	case grpcstatus.Code(err) == codes.NotFound:
		logger.V(2).Info("Container already gone")
	case err != nil:
		res.Err = fmt.Errorf("stopping container %s: %s", o.Name, grpcstatus.Convert(err).Message())
	default:
		logger.V(2).Info("Stopped container", "grace", grace)
	}
	return res
}

// runHook runs one preStop handler within ctx.
func (e *Executor) runHook(ctx context.Context, pod *corev1.Pod, o StopOrder) error {
	h := o.PreStop
	switch {
	case h.Exec != nil:
		return e.execHook(ctx, o, h.Exec.Command)
	case h.HTTPGet != nil:
		return e.httpHook(ctx, pod, o.Ports, h.HTTPGet)
	case h.TCPSocket != nil:
		return e.tcpHook(ctx, pod, o.Ports, h.TCPSocket)
	}
	return nil
}

func (e *Executor) execHook(ctx context.Context, o StopOrder, cmd []string) error {
	if len(cmd) == 0 {
		return fmt.Errorf("preStop exec hook has no command")
	}
	req := &runtimeapi.ExecSyncRequest{ContainerId: criclient.SplitContainerID(o.ContainerID), Cmd: cmd}
	if dl, ok := ctx.Deadline(); ok {
		req.Timeout = max(int64(time.Until(dl)/time.Second), 1)
	}
	resp, err := e.Runtime.ExecSync(ctx, req)
	if err != nil {
		return fmt.Errorf("preStop exec %q: %s", strings.Join(cmd, " "), grpcstatus.Convert(err).Message())
	}
	if resp.GetExitCode() != 0 {
		out := strings.TrimSpace(string(resp.GetStderr()))
		if out == "" {
			out = strings.TrimSpace(string(resp.GetStdout()))
		}
		return fmt.Errorf("preStop exec %q exited with %d: %s", strings.Join(cmd, " "), resp.GetExitCode(), truncate(out, 256))
	}
	return nil
}

func (e *Executor) httpHook(ctx context.Context, pod *corev1.Pod, ports []corev1.ContainerPort, h *corev1.HTTPGetAction) error {
	port, err := resolvePort(h.Port, ports)
	if err != nil {
		return fmt.Errorf("preStop httpGet: %w", err)
	}
	host := h.Host
	if host == "" {
		host = pod.Status.PodIP
	}
	if host == "" {
		return fmt.Errorf("preStop httpGet: the pod has no IP")
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
		return fmt.Errorf("preStop httpGet: path %q: %w", h.Path, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fmt.Errorf("preStop httpGet %s: %w", u, err)
	}
	for _, hdr := range h.HTTPHeaders {
		if strings.EqualFold(hdr.Name, "host") {
			req.Host = hdr.Value
			continue
		}
		req.Header.Add(hdr.Name, hdr.Value)
	}
	client := e.HTTP
	if client == nil {
		client = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // as the kubelet's hooks
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("preStop httpGet %s: %w", u, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode >= http.StatusBadRequest {
		return fmt.Errorf("preStop httpGet %s: %s", u, resp.Status)
	}
	return nil
}

func (e *Executor) tcpHook(ctx context.Context, pod *corev1.Pod, ports []corev1.ContainerPort, h *corev1.TCPSocketAction) error {
	port, err := resolvePort(h.Port, ports)
	if err != nil {
		return fmt.Errorf("preStop tcpSocket: %w", err)
	}
	host := h.Host
	if host == "" {
		host = pod.Status.PodIP
	}
	if host == "" {
		return fmt.Errorf("preStop tcpSocket: the pod has no IP")
	}
	dial := e.Dial
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	conn, err := dial(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("preStop tcpSocket %s: %w", addr, err)
	}
	return conn.Close()
}

// resolvePort turns a hook's port (a number, or the name of one of the container's
// ports) into a number.
func resolvePort(p intstr.IntOrString, ports []corev1.ContainerPort) (int, error) {
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

// hookKind names a preStop handler for messages.
func hookKind(h *v1alpha1.ProbeHandler) string {
	switch {
	case h == nil:
		return ""
	case h.Exec != nil:
		return "exec"
	case h.HTTPGet != nil:
		return "httpGet"
	case h.TCPSocket != nil:
		return "tcpSocket"
	}
	return ""
}
