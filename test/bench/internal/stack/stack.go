// Package stack starts and stops a private local control plane for the benchmark with
// hack/local-up.sh and hack/local-down.sh, in its own LOCAL_DIR and on its own ports, so
// it never collides with `make up` or the integration tests running on the same machine.
package stack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
)

const (
	upTimeout   = 8 * time.Minute
	downTimeout = 3 * time.Minute
	// hack/local-up.sh uses PORT_BASE..PORT_BASE+19 for up to ten nodes
	portSpan = 20
	// 32000..32599: above the integration framework's 20000..31999 and below Linux's
	// ephemeral ports (32768+), so a benchmark and tests can share the machine
	portBaseMin   = 32000
	portBaseSlots = 30
)

// Options say what to start.
type Options struct {
	Root  string // repository root
	Nodes int
	// Env is extra environment for local-up.sh (KUBE_APISERVER_ARGS, KRUISE_CONTROLLER_ARGS, ...).
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

	env   []string
	guard io.WriteCloser
}

// Up starts the whole stack and waits until local-up.sh says it is ready. On error the
// stack is already stopped.
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
	s := &Stack{
		Root: o.Root, LocalDir: dir, Kubeconfig: filepath.Join(dir, "kubeconfig"),
		PortBase: base, Nodes: o.Nodes,
	}
	s.env = append(append(os.Environ(),
		"LOCAL_DIR="+dir,
		"BIN_DIR="+filepath.Join(o.Root, "_output", "bin"),
		"PORT_BASE="+strconv.Itoa(base),
		"NODES="+strconv.Itoa(o.Nodes),
		"WAIT_TIMEOUT=180",
	), o.Env...)
	if err := s.startGuard(); err != nil {
		return nil, err
	}
	logger.Info("Starting the stack", "localDir", dir, "portBase", base, "nodes", o.Nodes)
	start := time.Now()
	if err := s.script(ctx, upTimeout, "local-up.sh"); err != nil {
		s.Down(ctx)
		return nil, err
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
	if err := s.script(context.WithoutCancel(ctx), downTimeout, "local-down.sh"); err != nil {
		logger.Error(err, "Stopping the stack")
	}
	dest := filepath.Join(s.Root, "_output", "bench-logs", filepath.Base(s.LocalDir))
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		logger.Error(err, "Keeping the logs", "dest", dest)
	}
	if err := exec.Command("cp", "-r", filepath.Join(s.LocalDir, "logs"), dest).Run(); err != nil {
		logger.Error(err, "Keeping the logs", "dest", dest)
	}
	_ = os.RemoveAll(s.LocalDir)
	if s.guard != nil {
		_ = s.guard.Close()
	}
	logger.Info("Stack stopped", "logs", dest)
}

// Stop stops one component (as named by local-up.sh, e.g. "kruise-controller").
func (s *Stack) Stop(ctx context.Context, component string) error {
	return s.script(ctx, downTimeout, "local-down.sh", component)
}

// Start starts one component with local-up.sh's flags plus extra environment.
func (s *Stack) Start(ctx context.Context, component string, env ...string) error {
	saved := s.env
	s.env = append(append([]string(nil), s.env...), env...)
	defer func() { s.env = saved }()
	return s.script(ctx, upTimeout, "local-up.sh", "start", component)
}

// PID is the process id of a running component, from LOCAL_DIR/pids.
func (s *Stack) PID(component string) (int, error) {
	b, err := os.ReadFile(filepath.Join(s.LocalDir, "pids", component+".pid"))
	if err != nil {
		return 0, fmt.Errorf("pid of %s: %w", component, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 0, fmt.Errorf("pid of %s: %w", component, err)
	}
	return pid, nil
}

// Path is a file under LOCAL_DIR.
func (s *Stack) Path(elem ...string) string {
	return filepath.Join(append([]string{s.LocalDir}, elem...)...)
}

func (s *Stack) connect() error {
	cfg, err := clientcmd.BuildConfigFromFlags("", s.Kubeconfig)
	if err != nil {
		return fmt.Errorf("loading %s: %w", s.Kubeconfig, err)
	}
	// The benchmark's own observers must never be the bottleneck they measure.
	cfg.QPS, cfg.Burst = 5000, 10000
	cfg.UserAgent = "kruise-bench"
	s.Config = cfg
	s.Ports, err = s.readPorts()
	return err
}

func (s *Stack) readPorts() (map[string]int, error) {
	cmd := exec.Command(filepath.Join(s.Root, "hack", "local-up.sh"), "ports")
	cmd.Env = s.env
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("hack/local-up.sh ports: %w", err)
	}
	ports := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		if p, err := strconv.Atoi(value); err == nil {
			ports[name] = p
		}
	}
	return ports, nil
}

// script runs hack/<name>; its output is appended to LOCAL_DIR/logs/local-up.log.
func (s *Stack) script(ctx context.Context, timeout time.Duration, name string, args ...string) error {
	logDir := filepath.Join(s.LocalDir, "logs")
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", logDir, err)
	}
	logFile, err := os.OpenFile(filepath.Join(logDir, "local-up.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("opening the script log: %w", err)
	}
	defer logFile.Close()
	fmt.Fprintf(logFile, "===== %s hack/%s %s\n", time.Now().UTC().Format(time.RFC3339), name, strings.Join(args, " "))
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(s.Root, "hack", name), args...)
	cmd.Env, cmd.Dir = s.env, s.Root
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Run(); err != nil {
		tail, _ := exec.Command("tail", "-n", "30", logFile.Name()).Output()
		return fmt.Errorf("hack/%s %s: %w\n%s", name, strings.Join(args, " "), err, tail)
	}
	return nil
}

// startGuard starts a helper that stops the stack if this process dies without doing it
// (SIGKILL, a crash): it waits for EOF on its stdin, which comes when we exit.
func (s *Stack) startGuard() error {
	script := `cat >/dev/null
[ -d "$LOCAL_DIR" ] || exit 0
"$GUARD_ROOT/hack/local-down.sh" >>"$LOCAL_DIR/logs/local-up.log" 2>&1
rm -rf "$LOCAL_DIR"`
	cmd := exec.Command("bash", "-c", script)
	cmd.Env = append(append([]string(nil), s.env...), "GUARD_ROOT="+s.Root)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	w, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("guard: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting the guard: %w", err)
	}
	go func() { _ = cmd.Wait() }()
	s.guard = w
	return nil
}

func choosePortBase() (int, error) {
	start := os.Getpid() % portBaseSlots
	for i := range portBaseSlots {
		base := portBaseMin + ((start+i)%portBaseSlots)*portSpan
		if portsFree(base, portSpan) {
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
