package containerrecreate

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"google.golang.org/grpc/codes"
	grpcstatus "google.golang.org/grpc/status"
	corev1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/criclient"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/handler"
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

func (e *Executor) runner() *handler.Runner {
	return &handler.Runner{Runtime: e.Runtime, HTTP: e.HTTP, Dial: e.Dial}
}

func (e *Executor) execHook(ctx context.Context, o StopOrder, cmd []string) error {
	if len(cmd) == 0 {
		return fmt.Errorf("preStop exec hook has no command")
	}
	if _, err := e.runner().Exec(ctx, o.ContainerID, cmd); err != nil {
		return fmt.Errorf("preStop %w", err)
	}
	return nil
}

func (e *Executor) httpHook(ctx context.Context, pod *corev1.Pod, ports []corev1.ContainerPort, h *corev1.HTTPGetAction) error {
	if err := e.runner().HTTPGet(ctx, pod.Status.PodIP, ports, h); err != nil {
		return fmt.Errorf("preStop %w", err)
	}
	return nil
}

func (e *Executor) tcpHook(ctx context.Context, pod *corev1.Pod, ports []corev1.ContainerPort, h *corev1.TCPSocketAction) error {
	if err := e.runner().TCPSocket(ctx, pod.Status.PodIP, ports, h); err != nil {
		return fmt.Errorf("preStop %w", err)
	}
	return nil
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
