package fakecri

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// The runtime-level calls a kubelet-like client makes besides sandboxes and containers.
// Stats, metrics, checkpoints and streaming (Exec/Attach/PortForward) stay Unimplemented
// through the embedded Unimplemented servers.

// Version names the runtime "fakecri".
func (s *Server) Version(context.Context, *runtimeapi.VersionRequest) (*runtimeapi.VersionResponse, error) {
	return &runtimeapi.VersionResponse{
		Version:           "0.1.0",
		RuntimeName:       RuntimeName,
		RuntimeVersion:    RuntimeVersion,
		RuntimeApiVersion: "v1",
	}, nil
}

// Status reports the runtime and its network ready.
func (s *Server) Status(_ context.Context, req *runtimeapi.StatusRequest) (*runtimeapi.StatusResponse, error) {
	resp := &runtimeapi.StatusResponse{Status: &runtimeapi.RuntimeStatus{Conditions: []*runtimeapi.RuntimeCondition{
		{Type: runtimeapi.RuntimeReady, Status: true},
		{Type: runtimeapi.NetworkReady, Status: true},
	}}}
	if req.GetVerbose() {
		resp.Info = map[string]string{"config": `{"runtime":"` + RuntimeName + `"}`}
	}
	return resp, nil
}

// UpdateRuntimeConfig accepts and ignores the config (there is no network to set up).
func (s *Server) UpdateRuntimeConfig(context.Context, *runtimeapi.UpdateRuntimeConfigRequest) (*runtimeapi.UpdateRuntimeConfigResponse, error) {
	return &runtimeapi.UpdateRuntimeConfigResponse{}, nil
}

// RuntimeConfig reports the systemd cgroup driver, as kubelet asks at start.
func (s *Server) RuntimeConfig(context.Context, *runtimeapi.RuntimeConfigRequest) (*runtimeapi.RuntimeConfigResponse, error) {
	return &runtimeapi.RuntimeConfigResponse{Linux: &runtimeapi.LinuxRuntimeConfiguration{CgroupDriver: runtimeapi.CgroupDriver_SYSTEMD}}, nil
}

// UpdateContainerResources accepts new resources for an existing container (nothing
// enforces them here).
func (s *Server) UpdateContainerResources(_ context.Context, req *runtimeapi.UpdateContainerResourcesRequest) (*runtimeapi.UpdateContainerResourcesResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.findContainerLocked(req.GetContainerId()) == nil {
		return nil, containerNotFound(req.GetContainerId())
	}
	return &runtimeapi.UpdateContainerResourcesResponse{}, nil
}

// ReopenContainerLog succeeds for a running container (there is no log file to reopen).
func (s *Server) ReopenContainerLog(_ context.Context, req *runtimeapi.ReopenContainerLogRequest) (*runtimeapi.ReopenContainerLogResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.findContainerLocked(req.GetContainerId())
	if c == nil {
		return nil, containerNotFound(req.GetContainerId())
	}
	if c.State != runtimeapi.ContainerState_CONTAINER_RUNNING {
		return nil, status.Errorf(codes.FailedPrecondition, "container %q is not running", c.ID)
	}
	return &runtimeapi.ReopenContainerLogResponse{}, nil
}

// GetContainerEvents streams container lifecycle events (kubelet's evented PLEG) until
// the client goes away.
func (s *Server) GetContainerEvents(_ *runtimeapi.GetEventsRequest, stream grpc.ServerStreamingServer[runtimeapi.ContainerEventResponse]) error {
	events, cancel := s.Subscribe()
	defer cancel()
	for {
		select {
		case <-stream.Context().Done():
			return nil
		case ev, ok := <-events:
			if !ok {
				return nil
			}
			resp := s.containerEvent(ev)
			if resp == nil {
				continue
			}
			if err := stream.Send(resp); err != nil {
				return err
			}
		}
	}
}

// containerEvent converts a runtime event to CRI's, nil for events CRI has no type for.
func (s *Server) containerEvent(ev Event) *runtimeapi.ContainerEventResponse {
	var t runtimeapi.ContainerEventType
	switch ev.Type {
	case EventContainerCreated:
		t = runtimeapi.ContainerEventType_CONTAINER_CREATED_EVENT
	case EventContainerStarted:
		t = runtimeapi.ContainerEventType_CONTAINER_STARTED_EVENT
	case EventContainerExited:
		t = runtimeapi.ContainerEventType_CONTAINER_STOPPED_EVENT
	case EventContainerRemoved:
		t = runtimeapi.ContainerEventType_CONTAINER_DELETED_EVENT
	default:
		return nil
	}
	resp := &runtimeapi.ContainerEventResponse{ContainerId: ev.ID, ContainerEventType: t, CreatedAt: nanos(ev.Time)}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.containers[ev.ID]; ok {
		resp.ContainersStatuses = []*runtimeapi.ContainerStatus{toCRIContainerStatus(c)}
	}
	return resp
}
