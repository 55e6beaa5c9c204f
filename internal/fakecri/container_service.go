package fakecri

import (
	"context"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// CreateContainer creates a container in the CREATED state. As in containerd, the
// sandbox must be ready, the image must be in the store, and a (name, attempt) pair is
// used at most once per sandbox.
func (s *Server) CreateContainer(_ context.Context, req *runtimeapi.CreateContainerRequest) (*runtimeapi.CreateContainerResponse, error) {
	cfg := req.GetConfig()
	md := cfg.GetMetadata()
	if md.GetName() == "" {
		return nil, status.Error(codes.InvalidArgument, "container config must include metadata name")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.findSandboxLocked(req.GetPodSandboxId())
	if sb == nil {
		return nil, status.Errorf(codes.NotFound, "failed to find sandbox id %q: not found", req.GetPodSandboxId())
	}
	if sb.State != runtimeapi.PodSandboxState_SANDBOX_READY {
		return nil, status.Errorf(codes.FailedPrecondition, "sandbox %q is not ready", sb.ID)
	}
	img := s.findImageLocked(cfg.GetImage().GetImage())
	if img == nil {
		return nil, status.Errorf(codes.NotFound, "failed to get image %q: no such image", cfg.GetImage().GetImage())
	}
	for _, c := range s.containers {
		if c.SandboxID == sb.ID && c.Name == md.GetName() && c.Attempt == md.GetAttempt() {
			return nil, status.Errorf(codes.AlreadyExists, "failed to reserve container name \"%s_%s_%s_%s_%d\": name is reserved for %q",
				md.GetName(), sb.Name, sb.Namespace, sb.UID, md.GetAttempt(), c.ID)
		}
	}
	c := &Container{
		ID:          newID(),
		SandboxID:   sb.ID,
		Name:        md.GetName(),
		Attempt:     md.GetAttempt(),
		Image:       img.Ref,
		UserImage:   cfg.GetImage().GetImage(),
		ImageID:     img.ID,
		ImageRef:    firstOr(img.RepoDigests, img.ID),
		Command:     slices.Clone(cfg.GetCommand()),
		Args:        slices.Clone(cfg.GetArgs()),
		WorkingDir:  cfg.GetWorkingDir(),
		Labels:      maps.Clone(cfg.GetLabels()),
		Annotations: maps.Clone(cfg.GetAnnotations()),
		LogPath:     cfg.GetLogPath(),
		State:       runtimeapi.ContainerState_CONTAINER_CREATED,
		CreatedAt:   time.Now(),
	}
	for _, kv := range cfg.GetEnvs() {
		c.Env = append(c.Env, EnvVar{Key: kv.GetKey(), Value: string(kv.GetValue())})
	}
	s.containers[c.ID] = c
	s.publish(Event{Type: EventContainerCreated, ID: c.ID, SandboxID: c.SandboxID, Labels: c.Labels})
	return &runtimeapi.CreateContainerResponse{ContainerId: c.ID}, nil
}

func firstOr(list []string, fallback string) string {
	if len(list) > 0 {
		return list[0]
	}
	return fallback
}

// StartContainer moves a CREATED container to RUNNING.
func (s *Server) StartContainer(_ context.Context, req *runtimeapi.StartContainerRequest) (*runtimeapi.StartContainerResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.findContainerLocked(req.GetContainerId())
	if c == nil {
		return nil, containerNotFound(req.GetContainerId())
	}
	if c.State != runtimeapi.ContainerState_CONTAINER_CREATED {
		return nil, status.Errorf(codes.FailedPrecondition, "container %q is in %s state", c.ID, c.State)
	}
	c.State = runtimeapi.ContainerState_CONTAINER_RUNNING
	c.StartedAt = time.Now()
	s.publish(Event{Type: EventContainerStarted, ID: c.ID, SandboxID: c.SandboxID, Labels: c.Labels})
	return &runtimeapi.StartContainerResponse{}, nil
}

// StopContainer stops a running container: it exits by itself after the configured stop
// delay with the configured exit code if that fits in the timeout (seconds), and is
// killed (exit code 137) at the timeout otherwise. Stopping a container that is not
// running is no error.
func (s *Server) StopContainer(ctx context.Context, req *runtimeapi.StopContainerRequest) (*runtimeapi.StopContainerResponse, error) {
	s.mu.Lock()
	c := s.findContainerLocked(req.GetContainerId())
	if c == nil {
		s.mu.Unlock()
		return nil, containerNotFound(req.GetContainerId())
	}
	id := c.ID
	behavior := s.stop
	s.mu.Unlock()

	timeout := time.Duration(req.GetTimeout()) * time.Second
	wait, code, reason := behavior.delay, behavior.exitCode, exitReason(behavior.exitCode)
	if req.GetTimeout() <= 0 || behavior.delay > timeout {
		wait, code, reason = min(behavior.delay, max(timeout, 0)), exitCodeKilled, "Error"
	}
	if wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, status.FromContextError(ctx.Err()).Err()
		}
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.containers[id]; ok && c.State == runtimeapi.ContainerState_CONTAINER_RUNNING {
		s.exitLocked(c, code, reason, "")
	}
	return &runtimeapi.StopContainerResponse{}, nil
}

// RemoveContainer kills the container if it runs and removes it. A missing container is
// no error (CRI requires idempotence).
func (s *Server) RemoveContainer(_ context.Context, req *runtimeapi.RemoveContainerRequest) (*runtimeapi.RemoveContainerResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.findContainerLocked(req.GetContainerId()); c != nil {
		s.removeContainerLocked(c)
	}
	return &runtimeapi.RemoveContainerResponse{}, nil
}

func (s *Server) removeContainerLocked(c *Container) {
	if c.State == runtimeapi.ContainerState_CONTAINER_RUNNING {
		s.exitLocked(c, exitCodeKilled, "Error", "")
	}
	delete(s.containers, c.ID)
	s.publish(Event{Type: EventContainerRemoved, ID: c.ID, SandboxID: c.SandboxID, Labels: c.Labels})
}

// ContainerStatus returns the container's status, NotFound for an unknown ID. With
// verbose, info["info"] holds the container's config as containerd reports it.
func (s *Server) ContainerStatus(_ context.Context, req *runtimeapi.ContainerStatusRequest) (*runtimeapi.ContainerStatusResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.findContainerLocked(req.GetContainerId())
	if c == nil {
		return nil, containerNotFound(req.GetContainerId())
	}
	resp := &runtimeapi.ContainerStatusResponse{Status: toCRIContainerStatus(c)}
	if req.GetVerbose() {
		info, err := containerInfoJSON(c)
		if err != nil {
			return nil, status.Errorf(codes.Internal, "failed to marshal info for container %q: %v", c.ID, err)
		}
		resp.Info = map[string]string{"info": info}
	}
	return resp, nil
}

// ListContainers lists containers matching the filter (ID or ID prefix, state, sandbox
// ID or prefix, labels), oldest first.
func (s *Server) ListContainers(_ context.Context, req *runtimeapi.ListContainersRequest) (*runtimeapi.ListContainersResponse, error) {
	return &runtimeapi.ListContainersResponse{Containers: s.listContainers(req.GetFilter())}, nil
}

// StreamContainers is ListContainers in one message.
func (s *Server) StreamContainers(req *runtimeapi.StreamContainersRequest, stream grpc.ServerStreamingServer[runtimeapi.StreamContainersResponse]) error {
	return stream.Send(&runtimeapi.StreamContainersResponse{Containers: s.listContainers(req.GetFilter())})
}

func (s *Server) listContainers(f *runtimeapi.ContainerFilter) []*runtimeapi.Container {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*runtimeapi.Container
	for _, c := range s.sortedContainersLocked() {
		if f.GetId() != "" && !strings.HasPrefix(c.ID, f.GetId()) {
			continue
		}
		if f.GetState() != nil && f.GetState().GetState() != c.State {
			continue
		}
		if f.GetPodSandboxId() != "" && !strings.HasPrefix(c.SandboxID, f.GetPodSandboxId()) {
			continue
		}
		if !labelsMatch(c.Labels, f.GetLabelSelector()) {
			continue
		}
		out = append(out, &runtimeapi.Container{
			Id:           c.ID,
			PodSandboxId: c.SandboxID,
			Metadata:     &runtimeapi.ContainerMetadata{Name: c.Name, Attempt: c.Attempt},
			Image:        &runtimeapi.ImageSpec{Image: c.Image, UserSpecifiedImage: c.UserImage},
			ImageRef:     c.ImageRef,
			ImageId:      c.ImageID,
			State:        c.State,
			CreatedAt:    nanos(c.CreatedAt),
			Labels:       maps.Clone(c.Labels),
			Annotations:  maps.Clone(c.Annotations),
		})
	}
	return out
}

func (s *Server) sortedContainersLocked() []*Container {
	list := make([]*Container, 0, len(s.containers))
	for _, c := range s.containers {
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool {
		if !list[i].CreatedAt.Equal(list[j].CreatedAt) {
			return list[i].CreatedAt.Before(list[j].CreatedAt)
		}
		return list[i].ID < list[j].ID
	})
	return list
}

func toCRIContainerStatus(c *Container) *runtimeapi.ContainerStatus {
	return &runtimeapi.ContainerStatus{
		Id:          c.ID,
		Metadata:    &runtimeapi.ContainerMetadata{Name: c.Name, Attempt: c.Attempt},
		State:       c.State,
		CreatedAt:   nanos(c.CreatedAt),
		StartedAt:   nanos(c.StartedAt),
		FinishedAt:  nanos(c.FinishedAt),
		ExitCode:    c.ExitCode,
		Image:       &runtimeapi.ImageSpec{Image: c.Image, UserSpecifiedImage: c.UserImage},
		ImageRef:    c.ImageRef,
		ImageId:     c.ImageID,
		Reason:      c.Reason,
		Message:     c.Message,
		Labels:      maps.Clone(c.Labels),
		Annotations: maps.Clone(c.Annotations),
		LogPath:     c.LogPath,
	}
}

// findContainerLocked finds a container by ID or unique ID prefix.
func (s *Server) findContainerLocked(id string) *Container {
	if id == "" {
		return nil
	}
	if c, ok := s.containers[id]; ok {
		return c
	}
	var found *Container
	for _, c := range s.containers {
		if strings.HasPrefix(c.ID, id) {
			if found != nil {
				return nil // ambiguous
			}
			found = c
		}
	}
	return found
}

func containerNotFound(id string) error {
	return status.Errorf(codes.NotFound, "an error occurred when try to find container %q: not found", id)
}
