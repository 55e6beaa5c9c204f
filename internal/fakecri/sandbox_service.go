package fakecri

import (
	"context"
	"maps"
	"sort"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// RunPodSandbox creates a READY sandbox. Like containerd it refuses a second sandbox
// with the same metadata (name, namespace, uid, attempt).
func (s *Server) RunPodSandbox(_ context.Context, req *runtimeapi.RunPodSandboxRequest) (*runtimeapi.RunPodSandboxResponse, error) {
	cfg := req.GetConfig()
	md := cfg.GetMetadata()
	if md.GetName() == "" || md.GetNamespace() == "" || md.GetUid() == "" {
		return nil, status.Error(codes.InvalidArgument, "sandbox config must include metadata name, namespace and uid")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sb := range s.sandboxes {
		if sb.Name == md.GetName() && sb.Namespace == md.GetNamespace() && sb.UID == md.GetUid() && sb.Attempt == md.GetAttempt() {
			return nil, status.Errorf(codes.AlreadyExists, "failed to reserve sandbox name %q: name is reserved for %q",
				sandboxName(md), sb.ID)
		}
	}
	sb := &Sandbox{
		ID:          newID(),
		Name:        md.GetName(),
		Namespace:   md.GetNamespace(),
		UID:         md.GetUid(),
		Attempt:     md.GetAttempt(),
		State:       runtimeapi.PodSandboxState_SANDBOX_READY,
		Hostname:    cfg.GetHostname(),
		Labels:      maps.Clone(cfg.GetLabels()),
		Annotations: maps.Clone(cfg.GetAnnotations()),
		CreatedAt:   time.Now(),
	}
	s.sandboxes[sb.ID] = sb
	s.publish(Event{Type: EventSandboxCreated, ID: sb.ID, SandboxID: sb.ID, Labels: sb.Labels})
	return &runtimeapi.RunPodSandboxResponse{PodSandboxId: sb.ID}, nil
}

// sandboxName is containerd's name for a sandbox: name_namespace_uid_attempt.
func sandboxName(md *runtimeapi.PodSandboxMetadata) string {
	return strings.Join([]string{md.GetName(), md.GetNamespace(), md.GetUid(), strconv.FormatUint(uint64(md.GetAttempt()), 10)}, "_")
}

// StopPodSandbox kills the sandbox's running containers and marks it NOTREADY. A
// missing sandbox is no error (CRI requires idempotence).
func (s *Server) StopPodSandbox(_ context.Context, req *runtimeapi.StopPodSandboxRequest) (*runtimeapi.StopPodSandboxResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.findSandboxLocked(req.GetPodSandboxId())
	if sb == nil {
		return &runtimeapi.StopPodSandboxResponse{}, nil
	}
	s.stopSandboxLocked(sb)
	return &runtimeapi.StopPodSandboxResponse{}, nil
}

func (s *Server) stopSandboxLocked(sb *Sandbox) {
	for _, c := range s.containers {
		if c.SandboxID == sb.ID && c.State == runtimeapi.ContainerState_CONTAINER_RUNNING {
			s.exitLocked(c, exitCodeKilled, "Error", "")
		}
	}
	if sb.State != runtimeapi.PodSandboxState_SANDBOX_NOTREADY {
		sb.State = runtimeapi.PodSandboxState_SANDBOX_NOTREADY
		s.publish(Event{Type: EventSandboxStopped, ID: sb.ID, SandboxID: sb.ID, Labels: sb.Labels})
	}
}

// RemovePodSandbox stops the sandbox if needed and removes it with its containers. A
// missing sandbox is no error.
func (s *Server) RemovePodSandbox(_ context.Context, req *runtimeapi.RemovePodSandboxRequest) (*runtimeapi.RemovePodSandboxResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.findSandboxLocked(req.GetPodSandboxId())
	if sb == nil {
		return &runtimeapi.RemovePodSandboxResponse{}, nil
	}
	s.stopSandboxLocked(sb)
	for _, c := range s.containers {
		if c.SandboxID == sb.ID {
			s.removeContainerLocked(c)
		}
	}
	delete(s.sandboxes, sb.ID)
	s.publish(Event{Type: EventSandboxRemoved, ID: sb.ID, SandboxID: sb.ID, Labels: sb.Labels})
	return &runtimeapi.RemovePodSandboxResponse{}, nil
}

// PodSandboxStatus returns the sandbox's status, NotFound for an unknown ID.
func (s *Server) PodSandboxStatus(_ context.Context, req *runtimeapi.PodSandboxStatusRequest) (*runtimeapi.PodSandboxStatusResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.findSandboxLocked(req.GetPodSandboxId())
	if sb == nil {
		return nil, status.Errorf(codes.NotFound, "an error occurred when try to find sandbox %q: not found", req.GetPodSandboxId())
	}
	st := &runtimeapi.PodSandboxStatus{
		Id:          sb.ID,
		Metadata:    sandboxMetadata(sb),
		State:       sb.State,
		CreatedAt:   nanos(sb.CreatedAt),
		Network:     &runtimeapi.PodSandboxNetworkStatus{},
		Linux:       &runtimeapi.LinuxPodSandboxStatus{Namespaces: &runtimeapi.Namespace{Options: &runtimeapi.NamespaceOption{}}},
		Labels:      maps.Clone(sb.Labels),
		Annotations: maps.Clone(sb.Annotations),
	}
	return &runtimeapi.PodSandboxStatusResponse{Status: st, Timestamp: time.Now().UnixNano()}, nil
}

// ListPodSandbox lists sandboxes matching the filter (ID or ID prefix, state, labels).
func (s *Server) ListPodSandbox(_ context.Context, req *runtimeapi.ListPodSandboxRequest) (*runtimeapi.ListPodSandboxResponse, error) {
	return &runtimeapi.ListPodSandboxResponse{Items: s.listSandboxes(req.GetFilter())}, nil
}

// StreamPodSandboxes is ListPodSandbox in one message.
func (s *Server) StreamPodSandboxes(req *runtimeapi.StreamPodSandboxesRequest, stream grpc.ServerStreamingServer[runtimeapi.StreamPodSandboxesResponse]) error {
	return stream.Send(&runtimeapi.StreamPodSandboxesResponse{PodSandboxes: s.listSandboxes(req.GetFilter())})
}

func (s *Server) listSandboxes(f *runtimeapi.PodSandboxFilter) []*runtimeapi.PodSandbox {
	s.mu.Lock()
	defer s.mu.Unlock()
	var matched []*Sandbox
	for _, sb := range s.sandboxes {
		if f.GetId() != "" && !strings.HasPrefix(sb.ID, f.GetId()) {
			continue
		}
		if f.GetState() != nil && f.GetState().GetState() != sb.State {
			continue
		}
		if !labelsMatch(sb.Labels, f.GetLabelSelector()) {
			continue
		}
		matched = append(matched, sb)
	}
	sort.Slice(matched, func(i, j int) bool { return matched[i].CreatedAt.Before(matched[j].CreatedAt) })
	out := make([]*runtimeapi.PodSandbox, 0, len(matched))
	for _, sb := range matched {
		out = append(out, &runtimeapi.PodSandbox{
			Id:          sb.ID,
			Metadata:    sandboxMetadata(sb),
			State:       sb.State,
			CreatedAt:   nanos(sb.CreatedAt),
			Labels:      maps.Clone(sb.Labels),
			Annotations: maps.Clone(sb.Annotations),
		})
	}
	return out
}

// Sandboxes returns every sandbox, oldest first.
func (s *Server) Sandboxes() []Sandbox {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Sandbox, 0, len(s.sandboxes))
	for _, sb := range s.sandboxes {
		out = append(out, sb.clone())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].CreatedAt.Before(out[j].CreatedAt) })
	return out
}

// findSandboxLocked finds a sandbox by ID or unique ID prefix (callers such as crictl
// use short IDs).
func (s *Server) findSandboxLocked(id string) *Sandbox {
	if id == "" {
		return nil
	}
	if sb, ok := s.sandboxes[id]; ok {
		return sb
	}
	var found *Sandbox
	for _, sb := range s.sandboxes {
		if strings.HasPrefix(sb.ID, id) {
			if found != nil {
				return nil // ambiguous
			}
			found = sb
		}
	}
	return found
}

func sandboxMetadata(sb *Sandbox) *runtimeapi.PodSandboxMetadata {
	return &runtimeapi.PodSandboxMetadata{Name: sb.Name, Namespace: sb.Namespace, Uid: sb.UID, Attempt: sb.Attempt}
}

// labelsMatch: every selector key is present with the same value.
func labelsMatch(labels, selector map[string]string) bool {
	for k, v := range selector {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}
