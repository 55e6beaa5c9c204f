// Package stack starts and stops a private local stack for the benchmark through
// internal/localstack, in its own LOCAL_DIR and on its own ports, so it never collides with
// `make up` or the integration tests running on the same machine.
package stack

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/internal/localstack"
)

const (
	upTimeout   = 8 * time.Minute
	downTimeout = 3 * time.Minute
	// 32000..32599: above the integration framework's 20000..31999 and below Linux's
	// ephemeral ports (32768+), so a benchmark and tests can share the machine
	portBaseMin   = 32000
	portBaseSlots = 30
)

// Options say what to start.
type Options struct {
	Root  string // repository root
	Nodes int
	// Env is extra settings as environment KEY=VALUE (KUBE_APISERVER_ARGS,
	// KRUISE_CONTROLLER_ARGS, ...; see hack/LOCAL.md).
	Env []string
}

// Stack is a running control plane.
type Stack struct {
	Root, LocalDir, Kubeconfig string
	PortBase                   int
	Ports                      map[string]int
	Nodes                      int
	// Config is the admin (system:masters) client config, without client-side rate limit.
	Config *rest.Config
	// Local is the stack itself.
	Local *localstack.Stack

	upLog *os.File
	guard *localstack.Guard
}

// Up starts the whole stack and waits until it is ready. On error the stack is already
// stopped.
func Up(ctx context.Context, o Options) (*Stack, error) {
	logger := klog.FromContext(ctx)
	base, err := choosePortBase()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "kruise-bench-")
	if err != nil {
		return nil, fmt.Errorf("creating LOCAL_DIR: %w", err)
	}
	// the environment's settings, then the benchmark's own
	lo, err := localstack.FromEnv(o.Root)
	if err != nil {
		return nil, err
	}
	lo.LocalDir, lo.BinDir, lo.PortBase, lo.Nodes, lo.WaitTimeout, lo.HA = dir, filepath.Join(o.Root, "_output", "bin"), base, o.Nodes, 180*time.Second, false
	if lo, err = lo.WithEnv(o.Env...); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o755); err != nil {
		return nil, err
	}
	upLog, err := os.OpenFile(filepath.Join(dir, "logs", "local-up.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening the stack's log: %w", err)
	}
	lo.Out, lo.Err = upLog, upLog
	local := localstack.New(lo)
	s := &Stack{
		Root: o.Root, LocalDir: dir, Kubeconfig: local.Kubeconfig(),
		PortBase: base, Nodes: o.Nodes, Ports: local.Ports.Map(), Local: local, upLog: upLog,
	}
	if s.guard, err = localstack.StartGuard(local, ""); err != nil {
		return nil, err
	}
	logger.Info("Starting the stack", "localDir", dir, "portBase", base, "nodes", o.Nodes)
	start := time.Now()
	upCtx, cancel := context.WithTimeout(ctx, upTimeout)
	err = local.Up(upCtx)
	cancel()
	if err != nil {
		s.Down(ctx)
		return nil, fmt.Errorf("starting the stack: %w", err)
	}
	if err := s.connect(); err != nil {
		s.Down(ctx)
		return nil, err
	}
	logger.Info("Stack up", "took", time.Since(start).Round(time.Second))
	return s, nil
}

// Down stops every process of the stack and removes its directory, keeping the logs
// under _output/bench-logs/<LOCAL_DIR name> for a look after a failed run.
func (s *Stack) Down(ctx context.Context) {
	logger := klog.FromContext(ctx)
	// a cancelled ctx (Ctrl-C) must not stop the teardown itself
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), downTimeout)
	defer cancel()
	if err := s.Local.Down(dctx, false); err != nil {
		logger.Error(err, "Stopping the stack")
	}
	dest := filepath.Join(s.Root, "_output", "bench-logs", filepath.Base(s.LocalDir))
	if err := s.Local.CopyLogs(dest); err != nil {
		logger.Error(err, "Keeping the logs", "dest", dest)
	}
	_ = s.upLog.Close()
	_ = os.RemoveAll(s.LocalDir)
	s.guard.Release()
	logger.Info("Stack stopped", "logs", dest)
}

// Stop stops one component (as localstack names it, e.g. "kruise-controller").
func (s *Stack) Stop(ctx context.Context, component string) error {
	ctx, cancel := context.WithTimeout(ctx, downTimeout)
	defer cancel()
	return s.Local.Stop(ctx, component)
}

// Start starts one component with `make up`'s flags plus extra environment settings.
func (s *Stack) Start(ctx context.Context, component string, env ...string) error {
	o, err := s.Local.Options.WithEnv(env...)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, upTimeout)
	defer cancel()
	return localstack.New(o).Start(ctx, component)
}

// PID is the process id of a running component.
func (s *Stack) PID(component string) (int, error) {
	pid, ok := s.Local.PID(component)
	if !ok {
		return 0, fmt.Errorf("pid of %s: not running", component)
	}
	return pid, nil
}

// Path is a file under LOCAL_DIR.
func (s *Stack) Path(elem ...string) string {
	return filepath.Join(append([]string{s.LocalDir}, elem...)...)
}

func (s *Stack) connect() error {
	cfg, err := s.Local.RESTConfig()
	if err != nil {
		return err
	}
	// The benchmark's own observers must never be the bottleneck they measure.
	cfg.QPS, cfg.Burst = 5000, 10000
	cfg.UserAgent = "kruise-bench"
	s.Config = cfg
	return nil
}

func choosePortBase() (int, error) {
	start := os.Getpid() % portBaseSlots
	for i := range portBaseSlots {
		base := portBaseMin + ((start+i)%portBaseSlots)*localstack.PortSpan
		if portsFree(base, localstack.PortSpan) {
			return base, nil
		}
	}
	return 0, errors.New("no free block of 20 ports between 32000 and 32600")
}

func portsFree(base, n int) bool {
	for p := base; p < base+n; p++ {
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			return false
		}
		_ = l.Close()
	}
	return true
}
