package fakecri

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"google.golang.org/grpc"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// RuntimeName is what Version reports as the runtime's name; kubelet shows it in the
// node's containerRuntimeVersion and container IDs carry it as their scheme.
const (
	RuntimeName    = "fakecri"
	RuntimeVersion = "0.1.0"
)

// Server is the in-memory runtime. Its gRPC methods and its in-process methods are safe
// for concurrent use; one mutex guards all state because every call is short (pull
// latency and stop grace periods are waited out without holding it).
type Server struct {
	runtimeapi.UnimplementedRuntimeServiceServer
	runtimeapi.UnimplementedImageServiceServer

	mu         sync.Mutex
	images     map[string]*Image // by normalized reference
	sandboxes  map[string]*Sandbox
	containers map[string]*Container
	pulls      pullConfig
	pullLog    []PullRecord
	execs      execConfig
	stop       stopConfig
	subs       map[*subscription]struct{}

	grpcServer *grpc.Server
	socketPath string
	serveErr   chan error
}

var (
	_ runtimeapi.RuntimeServiceServer = (*Server)(nil)
	_ runtimeapi.ImageServiceServer   = (*Server)(nil)
)

// NewServer returns an empty runtime: no images, sandboxes or containers; every image
// exists in the registry and pulls succeed at once; ExecSync exits 0; containers exit 0
// as soon as they are asked to stop.
func NewServer() *Server {
	return &Server{
		images:     map[string]*Image{},
		sandboxes:  map[string]*Sandbox{},
		containers: map[string]*Container{},
		subs:       map[*subscription]struct{}{},
	}
}

// Start listens on the unix socket socketPath (removing a stale socket file first) and
// serves the RuntimeService and ImageService on it in the background until Stop.
func (s *Server) Start(socketPath string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.grpcServer != nil {
		return fmt.Errorf("fakecri: already serving on %s", s.socketPath)
	}
	if err := os.MkdirAll(filepath.Dir(socketPath), 0o755); err != nil {
		return fmt.Errorf("fakecri: create socket directory: %w", err)
	}
	if err := os.Remove(socketPath); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("fakecri: remove stale socket: %w", err)
	}
	lis, err := net.Listen("unix", socketPath)
	if err != nil {
		return fmt.Errorf("fakecri: listen on %s: %w", socketPath, err)
	}
	gs := grpc.NewServer()
	runtimeapi.RegisterRuntimeServiceServer(gs, s)
	runtimeapi.RegisterImageServiceServer(gs, s)
	s.grpcServer, s.socketPath = gs, socketPath
	s.serveErr = make(chan error, 1)
	go func(errc chan<- error) { errc <- gs.Serve(lis) }(s.serveErr)
	return nil
}

// Stop stops serving: calls in flight get a few seconds to finish (a slow pull is
// cancelled after that), then the socket is closed and removed. Stop on a server that
// is not serving does nothing. The in-memory state stays.
func (s *Server) Stop() {
	s.mu.Lock()
	gs, path, errc := s.grpcServer, s.socketPath, s.serveErr
	s.grpcServer, s.socketPath, s.serveErr = nil, "", nil
	s.mu.Unlock()
	if gs == nil {
		return
	}
	done := make(chan struct{})
	go func() { gs.GracefulStop(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		gs.Stop()
		<-done
	}
	<-errc
	_ = os.Remove(path)
}

// Serve is Start, then Stop when ctx is done.
func (s *Server) Serve(ctx context.Context, socketPath string) error {
	if err := s.Start(socketPath); err != nil {
		return err
	}
	<-ctx.Done()
	s.Stop()
	return nil
}

// Endpoint is the CRI endpoint of the socket being served ("unix:///path"), or "".
func (s *Server) Endpoint() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.socketPath == "" {
		return ""
	}
	return "unix://" + s.socketPath
}
