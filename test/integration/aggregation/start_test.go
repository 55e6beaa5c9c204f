package aggregation

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/internal/localstack"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// process is a kruise-apiserver this test runs itself, with its output kept.
type process struct {
	cmd    *exec.Cmd
	out    syncBuffer
	exited chan struct{}
	err    error // cmd.Wait's, once exited is closed
}

func runKruiseAPIServer(t *testing.T, bin string, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(bin, args...), exited: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.exited) }()
	// never left behind, whatever the test concluded
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			_ = p.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-p.exited:
			case <-time.After(30 * time.Second):
				_ = p.cmd.Process.Kill()
				<-p.exited
			}
		}
	})
	return p
}

// syncBuffer is the process's output, read while it may still write.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// exitCode is the process's exit status, -1 when a signal ended it.
func (p *process) exitCode() int {
	var exitErr *exec.ExitError
	if errors.As(p.err, &exitErr) {
		return exitErr.ExitCode()
	}
	if p.err != nil {
		return -1
	}
	return 0
}

// lastLines is the end of the output, for failure messages.
func (p *process) lastLines(n int) string {
	lines := strings.Split(strings.TrimSpace(p.out.String()), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// freePort is a loopback port nothing listens on.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// kruise-apiserver whose embedded etcd cannot start exits non-zero within seconds,
// naming the cause, so that its supervisor starts it again; it used to hang for ever.
// The stack's kruise-apiserver runs on, holding what a restart that comes too early
// finds still held: the embedded etcd's ports and its data dir.
func TestKruiseAPIServerExitsWhenEmbeddedEtcdCannotStart(t *testing.T) {
	c := framework.Get(t)
	bin, args, err := c.Stack.KruiseAPIServerCommand(localstack.KruiseAPIServer)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		// flags after the stack's (the last of a flag wins)
		extra func(t *testing.T) []string
		want  string
	}{
		{
			name:  "previous process still running",
			extra: func(*testing.T) []string { return nil },
			want:  "is in use by another process",
		},
		{
			name: "etcd ports held",
			extra: func(t *testing.T) []string {
				return []string{"--embedded-etcd-data-dir=" + t.TempDir(), "--secure-port=" + freePort(t)}
			},
			want: "127.0.0.1:" + strconv.Itoa(c.Stack.Ports.KruiseEtcdPeer) + ": bind: address already in use",
		},
		{
			name: "data dir in use",
			extra: func(t *testing.T) []string {
				return []string{"--secure-port=" + freePort(t),
					"--embedded-etcd-client-port=" + freePort(t), "--embedded-etcd-peer-port=" + freePort(t)}
			},
			want: "is in use by another process",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := runKruiseAPIServer(t, bin, append(append([]string{}, args...), tc.extra(t)...)...)
			select {
			case <-p.exited:
			case <-time.After(30 * time.Second):
				t.Fatalf("kruise-apiserver still running 30s after its embedded etcd could not start; its output ends:\n%s", p.lastLines(20))
			}
			if p.exitCode() <= 0 {
				t.Errorf("exit code %d, want non-zero", p.exitCode())
			}
			if !strings.Contains(p.out.String(), tc.want) {
				t.Errorf("output lacks %q; it ends:\n%s", tc.want, p.lastLines(20))
			}
			t.Logf("exit code %d: %s", p.exitCode(), p.lastLines(1))
		})
	}
	// The stack's kruise-apiserver was never disturbed.
	if err := c.Stack.KruiseAPIServerReady(context.Background(), localstack.KruiseAPIServer); err != nil {
		t.Fatalf("the stack's kruise-apiserver after the failed starts: %v", err)
	}
}

// kruise-apiserver started again within a second of its previous process's exit
// (stopped, or killed as by the OOM killer) either starts or exits non-zero: it never
// hangs. Each time the stack then starts it again as its own.
func TestKruiseAPIServerQuickRestart(t *testing.T) {
	c := framework.Get(t)
	name := localstack.KruiseAPIServer
	bin, args, err := c.Stack.KruiseAPIServerCommand(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		stop func(t *testing.T)
	}{
		{"after SIGTERM", func(t *testing.T) { c.StopComponent(t, name) }},
		{"after SIGKILL", func(t *testing.T) { c.KillComponent(t, name) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.stop(t) // returns once the process is gone
			gone := time.Now()
			p := runKruiseAPIServer(t, bin, args...)
			if d := time.Since(gone); d > time.Second {
				t.Fatalf("started %s after the previous process exited, want within a second", d)
			}
			if ready := readyOrExited(t, c, p, name, 90*time.Second); ready {
				t.Logf("ready %s after the previous process exited", time.Since(gone).Round(100*time.Millisecond))
				_ = p.cmd.Process.Signal(syscall.SIGTERM)
				select {
				case <-p.exited:
				case <-time.After(time.Minute):
					t.Fatal("still running a minute after SIGTERM")
				}
			}
			c.StartKruiseAPIServer(t)
		})
	}
}

// readyOrExited waits until p answers /readyz (true) or exits non-zero (false), and
// fails the test if it exits zero or does neither within timeout.
func readyOrExited(t *testing.T, c *framework.Cluster, p *process, name string, timeout time.Duration) bool {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		select {
		case <-p.exited:
			if p.exitCode() <= 0 {
				t.Fatalf("exited with code %d, want non-zero (or to keep running); output ends:\n%s", p.exitCode(), p.lastLines(20))
			}
			t.Logf("exited with code %d; output ends:\n%s", p.exitCode(), p.lastLines(5))
			return false
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		err := c.Stack.KruiseAPIServerReady(ctx, name)
		cancel()
		if err == nil {
			return true
		}
		if time.Now().After(deadline) {
			t.Fatalf("neither ready nor exited within %s (last /readyz: %v); output ends:\n%s", timeout, err, p.lastLines(20))
		}
		select {
		case <-p.exited:
		case <-time.After(250 * time.Millisecond):
		}
	}
}
