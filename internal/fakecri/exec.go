package fakecri

import (
	"context"
	"slices"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// ExecResult is what an ExecHandler makes an ExecSync call return.
type ExecResult struct {
	Stdout, Stderr []byte
	ExitCode       int32
}

// ExecHandler runs a command in a container for ExecSync. ctx carries the call's
// timeout; a handler that takes long should honour it. The container is a copy.
type ExecHandler func(ctx context.Context, c Container, cmd []string) (ExecResult, error)

// ExecRecord is one ExecSync call on a running container.
type ExecRecord struct {
	ContainerID string
	Cmd         []string
	Time        time.Time
	ExitCode    int32
	Err         error
}

type execConfig struct {
	handler ExecHandler
	log     []ExecRecord
}

// SetExecHandler sets what ExecSync runs; nil restores the default (exit 0, no output).
func (s *Server) SetExecHandler(h ExecHandler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.execs.handler = h
}

// Execs returns every ExecSync call on a running container so far, oldest first (how a
// test sees that a preStop exec hook ran).
func (s *Server) Execs() []ExecRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ExecRecord, len(s.execs.log))
	for i, r := range s.execs.log {
		out[i] = r
		out[i].Cmd = slices.Clone(r.Cmd)
	}
	return out
}

// ExecSync runs the exec handler for a running container, within the request's timeout
// (seconds; 0 means none).
func (s *Server) ExecSync(ctx context.Context, req *runtimeapi.ExecSyncRequest) (*runtimeapi.ExecSyncResponse, error) {
	if len(req.GetCmd()) == 0 {
		return nil, status.Error(codes.InvalidArgument, "cmd must not be empty")
	}
	s.mu.Lock()
	c := s.findContainerLocked(req.GetContainerId())
	if c == nil {
		s.mu.Unlock()
		return nil, containerNotFound(req.GetContainerId())
	}
	if c.State != runtimeapi.ContainerState_CONTAINER_RUNNING {
		s.mu.Unlock()
		return nil, status.Errorf(codes.FailedPrecondition, "container %q is not running", c.ID)
	}
	snapshot, handler := c.clone(), s.execs.handler
	s.mu.Unlock()

	if req.GetTimeout() > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(req.GetTimeout())*time.Second)
		defer cancel()
	}
	var res ExecResult
	var err error
	if handler != nil {
		res, err = handler(ctx, snapshot, slices.Clone(req.GetCmd()))
		if ctx.Err() != nil {
			// Past the timeout the result does not count, whatever the handler said.
			err = status.FromContextError(ctx.Err()).Err()
		}
	}

	s.mu.Lock()
	s.execs.log = append(s.execs.log, ExecRecord{
		ContainerID: snapshot.ID, Cmd: slices.Clone(req.GetCmd()), Time: time.Now(), ExitCode: res.ExitCode, Err: err,
	})
	s.publish(Event{Type: EventContainerExecuted, ID: snapshot.ID, SandboxID: snapshot.SandboxID, Labels: snapshot.Labels})
	s.mu.Unlock()
	if err != nil {
		if _, ok := status.FromError(err); !ok {
			err = status.Error(codes.Unknown, err.Error())
		}
		return nil, err
	}
	return &runtimeapi.ExecSyncResponse{Stdout: res.Stdout, Stderr: res.Stderr, ExitCode: res.ExitCode}, nil
}
