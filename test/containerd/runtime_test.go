package containerd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/nodedaemon/criclient"
)

// startTimeout bounds containerd's start: it answers in about a second when it
// works, and the machine may be shared.
const startTimeout = 30 * time.Second

// runtimeProc is one private containerd and a CRI client connected to it.
type runtimeProc struct {
	layout
	cmd     *exec.Cmd
	exited  chan struct{} // closed when cmd has been waited for
	waitErr error
	cri     *criclient.Client
	// createdRun lists the system directories containerd 1.6 creates for shim
	// sockets that did not exist before the test, deepest first; stop removes
	// them again when they are empty.
	createdRun []string
}

// shimSocketDirs are where containerd 1.6 puts shim sockets whatever its
// configuration says (named by a hash of our socket path, so they never
// collide with a system containerd's).
var shimSocketDirs = []string{"/run/containerd/s", "/run/containerd"}

// startContainerd starts containerd with its own root, state and socket under
// l.dir and waits for the CRI plugin to answer Version. When containerd cannot
// start here, the test is skipped with containerd's error and the tail of its
// log. Everything it started is stopped when the test ends: pod sandboxes
// (and with them the shims) first, then containerd.
func startContainerd(ctx context.Context, t *testing.T, bin string, l layout, sandboxImage string) *runtimeProc {
	t.Helper()
	logger := klog.FromContext(ctx)
	if len(l.socket) > 100 {
		// sun_path holds 108 bytes; containerd adds ".ttrpc".
		t.Fatalf("socket path %q is too long for a unix socket", l.socket)
	}
	for _, d := range []string{l.root, l.state, l.runcRoot, l.certsDir, l.podLogs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(l.config, []byte(configTOML(l, sandboxImage)), 0o644); err != nil {
		t.Fatal(err)
	}
	logFile, err := os.Create(l.logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()

	cmd := exec.Command(bin, "--config", l.config)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// If the test binary dies, containerd must not outlive it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		t.Skipf("containerd cannot be started here: %v", err)
	}
	p := &runtimeProc{layout: l, cmd: cmd, exited: make(chan struct{})}
	for _, d := range shimSocketDirs {
		if _, err := os.Stat(d); os.IsNotExist(err) {
			p.createdRun = append(p.createdRun, d)
		}
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() { p.stop(t) })

	// Closed by stop, which still needs it to remove the sandboxes.
	p.cri, err = criclient.New("unix://" + l.socket)
	if err != nil {
		t.Fatal(err)
	}

	v, err := p.waitReady(ctx)
	if err != nil {
		t.Skipf("containerd did not come up here: %v\n--- containerd log (tail) ---\n%s", err, p.logTail(40))
	}
	logger.Info("containerd answers CRI", "runtime", v.GetRuntimeName(), "version", v.GetRuntimeVersion(),
		"criVersion", v.GetRuntimeApiVersion(), "took", time.Since(begin).Round(time.Millisecond))
	return p
}

// waitReady polls CRI Version until it answers, containerd exits or
// startTimeout passes.
func (p *runtimeProc) waitReady(ctx context.Context) (*runtimeapi.VersionResponse, error) {
	deadline := time.Now().Add(startTimeout)
	var lastErr error
	for time.Now().Before(deadline) {
		select {
		case <-p.exited:
			return nil, fmt.Errorf("containerd exited: %w", p.exitError())
		default:
		}
		v, err := p.cri.Version(ctx, time.Second)
		if err == nil {
			return v, nil
		}
		lastErr = err
		time.Sleep(100 * time.Millisecond)
	}
	return nil, fmt.Errorf("no CRI answer within %s: %w", startTimeout, lastErr)
}

func (p *runtimeProc) exitError() error {
	if p.waitErr != nil {
		return p.waitErr
	}
	return errors.New("exit status 0")
}

// stop removes every pod sandbox through CRI (which stops their containers and
// lets the shims exit), stops containerd with SIGTERM (SIGKILL after 10s), then
// ends any shim still running and detaches mounts left under the directory, so
// that the temporary directory can be removed.
func (p *runtimeProc) stop(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	select {
	case <-p.exited:
	default:
		if p.cri != nil {
			p.removeSandboxes(ctx, t)
		}
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(10 * time.Second):
			t.Logf("containerd ignored SIGTERM for 10s, killing it")
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
	}
	if p.cri != nil {
		_ = p.cri.Close()
	}
	p.killShims(t)
	p.detachMounts(t)
	for _, d := range p.createdRun {
		_ = os.Remove(d) // only if empty: a system containerd may have started since
	}
}

func (p *runtimeProc) removeSandboxes(ctx context.Context, t *testing.T) {
	resp, err := p.cri.Runtime.ListPodSandbox(ctx, &runtimeapi.ListPodSandboxRequest{})
	if err != nil {
		t.Logf("cleanup: listing pod sandboxes: %v", err)
		return
	}
	for _, sb := range resp.GetItems() {
		if _, err := p.cri.Runtime.StopPodSandbox(ctx, &runtimeapi.StopPodSandboxRequest{PodSandboxId: sb.GetId()}); err != nil {
			t.Logf("cleanup: stopping sandbox %s: %v", sb.GetId(), err)
		}
		if _, err := p.cri.Runtime.RemovePodSandbox(ctx, &runtimeapi.RemovePodSandboxRequest{PodSandboxId: sb.GetId()}); err != nil {
			t.Logf("cleanup: removing sandbox %s: %v", sb.GetId(), err)
		}
	}
}

// killShims ends the shims our containerd started that are still alive (a
// sandbox that could not be removed), by the pid each wrote in its bundle.
func (p *runtimeProc) killShims(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(p.state, "io.containerd.runtime.v2.task", "*", "*", "shim.pid"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 1 {
			continue
		}
		if err := syscall.Kill(pid, syscall.SIGKILL); err == nil {
			t.Logf("cleanup: killed leftover shim %d (%s)", pid, f)
		}
	}
}

// detachMounts lazily unmounts whatever is still mounted under the directory
// (sandbox /dev/shm, container root filesystems), deepest first.
func (p *runtimeProc) detachMounts(t *testing.T) {
	mounts, err := mountPointsUnder(p.dir)
	if err != nil {
		t.Logf("cleanup: reading mounts: %v", err)
		return
	}
	for _, m := range mounts {
		if err := syscall.Unmount(m, syscall.MNT_DETACH); err != nil {
			t.Logf("cleanup: unmounting %s: %v", m, err)
		} else {
			t.Logf("cleanup: unmounted leftover %s", m)
		}
	}
}

// mountPointsUnder lists the mount points below dir, longest path first.
func mountPointsUnder(dir string) ([]string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("mountinfo: %w", err)
	}
	defer f.Close()
	var out []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) < 5 {
			continue
		}
		// Field 5 is the mount point, with spaces and the like octal-escaped.
		mp := unescapeMountinfo(fields[4])
		if strings.HasPrefix(mp, dir+"/") {
			out = append(out, mp)
		}
	}
	if err := s.Err(); err != nil {
		return nil, fmt.Errorf("mountinfo: %w", err)
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out, nil
}

func unescapeMountinfo(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// logTail returns the last n lines of containerd's log.
func (p *runtimeProc) logTail(n int) string {
	b, err := os.ReadFile(p.logFile)
	if err != nil {
		return fmt.Sprintf("(no log: %v)", err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
