// Package framework runs integration tests against a private local control plane: real
// etcd, kube-apiserver, kube-controller-manager and kube-scheduler, kwok for kubelets, and
// the Kruise binaries when they are built — the same stack `make up` starts, in its own
// directory and on its own ports, started by hack/local-up.sh.
//
// Use it from TestMain:
//
//	func TestMain(m *testing.M) { framework.Main(m) }
//
//	func TestSomething(t *testing.T) {
//		c := framework.Get(t)
//		ns := c.CreateNamespace(t)
//		...
//	}
//
// Environment: NODES (kwok nodes, default 3), KEEP_STACK=1 (leave the stack running and
// its directory in place after the tests, for debugging; stop it with the printed command).
package framework

import (
	"bufio"
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
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Tools hack/local-up.sh needs in _output/bin (`make tools` builds them).
var requiredTools = []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "kubectl"}

// KruiseAPIServices are the APIServices kruise-apiserver serves.
var KruiseAPIServices = []string{"v1beta1.apps.kruise.io", "v1alpha1.apps.kruise.io", "v1beta1.policy.kruise.io", "v1alpha1.policy.kruise.io"}

var apiServiceGVR = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}

const (
	stackUpTimeout   = 5 * time.Minute
	stackDownTimeout = 2 * time.Minute
	// a stack uses PORT_BASE..PORT_BASE+portSpan-1 (hack/local-up.sh offsets are < 20)
	portSpan = 20
	// PORT_BASE candidates stay in 20000..31999: away from the standard ports `make up`
	// uses and below Linux's ephemeral port range (32768+)
	portBaseMin   = 20000
	portBaseSlots = 600
)

// Cluster is the running stack of a test binary.
type Cluster struct {
	// Root is the repository root; BinDir holds the binaries (Root/_output/bin).
	Root, BinDir string
	// LocalDir is the stack's LOCAL_DIR (certificates, logs, data).
	LocalDir string
	// Kubeconfig is the admin (system:masters) kubeconfig.
	Kubeconfig string
	// PortBase is the stack's PORT_BASE; Ports maps component names (as in
	// `hack/local-up.sh ports`, e.g. "kube-apiserver", "kruise-apiserver") to ports.
	PortBase int
	Ports    map[string]int
	// Nodes is the number of kwok nodes, named kwok-node-0..Nodes-1.
	Nodes int

	Config  *rest.Config
	Client  kubernetes.Interface
	Dynamic dynamic.Interface

	env []string // the environment local-up.sh / local-down.sh run with
}

// current is set by Main for the tests of this binary.
var current *Cluster

// Get returns the stack started by Main. It fails the test if TestMain did not call Main.
func Get(t testing.TB) *Cluster {
	t.Helper()
	if current == nil {
		t.Fatal("framework: no stack; call framework.Main(m) from TestMain")
	}
	return current
}

// Main starts a private stack, runs the tests, stops the stack and exits. On failure the
// stack's logs are copied to _output/test-logs/<package>/.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintf(os.Stderr, "framework: %v\n", err)
		return 1
	}
	binDir := filepath.Join(root, "_output", "bin")
	var missing []string
	for _, tool := range requiredTools {
		if _, err := os.Stat(filepath.Join(binDir, tool)); err != nil {
			missing = append(missing, tool)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "framework: %s missing in %s: run `make tools` (and `make build` for the Kruise binaries) first\n",
			strings.Join(missing, ", "), binDir)
		return 1
	}

	nodes := 3
	if v := os.Getenv("NODES"); v != "" {
		if nodes, err = strconv.Atoi(v); err != nil || nodes < 0 {
			fmt.Fprintf(os.Stderr, "framework: NODES=%q is not a number >= 0\n", v)
			return 1
		}
	}
	portBase, err := choosePortBase()
	if err != nil {
		fmt.Fprintf(os.Stderr, "framework: %v\n", err)
		return 1
	}
	localDir, err := os.MkdirTemp("", "kruise-it-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "framework: %v\n", err)
		return 1
	}
	c := &Cluster{
		Root:       root,
		BinDir:     binDir,
		LocalDir:   localDir,
		Kubeconfig: filepath.Join(localDir, "kubeconfig"),
		PortBase:   portBase,
		Nodes:      nodes,
	}
	c.env = append(os.Environ(),
		"LOCAL_DIR="+localDir,
		"BIN_DIR="+binDir,
		"PORT_BASE="+strconv.Itoa(portBase),
		"NODES="+strconv.Itoa(nodes),
	)
	logDest := filepath.Join(root, "_output", "test-logs", packageName(root))
	keep := os.Getenv("KEEP_STACK") == "1"

	// If this process dies without cleaning up (test timeout panic, SIGKILL, Ctrl-C), the
	// guard notices its stdin closing and stops the stack, keeping the logs.
	guard, err := c.startGuard(logDest, keep)
	if err != nil {
		fmt.Fprintf(os.Stderr, "framework: %v\n", err)
		return 1
	}

	code := 1
	failed := true
	defer func() {
		if failed {
			c.saveLogs(logDest)
		}
		if keep {
			fmt.Fprintf(os.Stderr, "framework: KEEP_STACK=1: stack left running in %s\n  export KUBECONFIG=%s\n  stop: LOCAL_DIR=%s hack/local-down.sh\n",
				localDir, c.Kubeconfig, localDir)
		} else {
			if err := c.script(stackDownTimeout, "local-down.sh"); err != nil {
				fmt.Fprintf(os.Stderr, "framework: stopping the stack: %v\n", err)
			}
			_ = os.RemoveAll(localDir)
		}
		guard.done()
	}()

	start := time.Now()
	fmt.Fprintf(os.Stderr, "framework: starting the stack in %s (PORT_BASE=%d, NODES=%d)\n", localDir, portBase, nodes)
	if err := c.script(stackUpTimeout, "local-up.sh"); err != nil {
		fmt.Fprintf(os.Stderr, "framework: hack/local-up.sh failed: %v\n", err)
		printTail(os.Stderr, filepath.Join(localDir, "logs", "local-up.log"), 60)
		return code
	}
	if err := c.connect(); err != nil {
		fmt.Fprintf(os.Stderr, "framework: %v\n", err)
		return code
	}
	if c.HasKruiseAPIServer() {
		if err := c.waitAPIServicesAvailable(context.Background(), time.Minute); err != nil {
			fmt.Fprintf(os.Stderr, "framework: %v\n", err)
			return code
		}
	}
	fmt.Fprintf(os.Stderr, "framework: stack up in %s\n", time.Since(start).Round(100*time.Millisecond))

	current = c
	code = m.Run()
	failed = code != 0
	return code
}

// HasKruiseAPIServer reports whether kruise-apiserver is built (and so part of the stack).
func (c *Cluster) HasKruiseAPIServer() bool {
	_, err := os.Stat(filepath.Join(c.BinDir, "kruise-apiserver"))
	return err == nil
}

// Kubectl runs _output/bin/kubectl against the stack as cluster admin.
func (c *Cluster) Kubectl(t testing.TB, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(c.BinDir, "kubectl"), append([]string{"--kubeconfig", c.Kubeconfig}, args...)...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	if err != nil {
		err = fmt.Errorf("kubectl %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	return out.String(), errOut.String(), err
}

// CreateNamespace creates a namespace with a unique name derived from the test's name and
// deletes it when the test ends.
func (c *Cluster) CreateNamespace(t testing.TB) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
		GenerateName: namespacePrefix(t.Name()),
		Labels:       map[string]string{"kruise-native.io/integration-test": "true"},
	}}
	created, err := c.Client.CoreV1().Namespaces().Create(context.Background(), ns, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create namespace: %v", err)
	}
	name := created.Name
	t.Cleanup(func() {
		err := c.Client.CoreV1().Namespaces().Delete(context.Background(), name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("delete namespace %s: %v", name, err)
		}
	})
	return name
}

// WaitFor polls cond every 250ms until it returns true, and fails the test when timeout
// passes first. An error from cond counts as "not yet" and is reported on timeout; call
// t.Fatal inside cond for errors that cannot go away.
func WaitFor(t testing.TB, timeout time.Duration, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var lastErr error
	for {
		ok, err := cond()
		if ok && err == nil {
			return
		}
		lastErr = err
		if time.Now().After(deadline) {
			if lastErr != nil {
				t.Fatalf("condition not met within %s; last error: %v", timeout, lastErr)
			}
			t.Fatalf("condition not met within %s", timeout)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// Consistently asserts that cond holds for the whole of d, checking it every 250 ms
// from the start: the form of a negative assertion ("nothing else happens") that fails
// at the first moment it stops holding, rather than a sleep and one look at the end.
// cond returns a description of what it saw when it does not hold.
func Consistently(t testing.TB, d time.Duration, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		if ok, saw := cond(); !ok {
			t.Fatalf("condition stopped holding after %s of %s: %s", d-time.Until(deadline).Round(time.Millisecond), d, saw)
		}
		if time.Now().After(deadline) {
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// StopKruiseAPIServer stops kruise-apiserver (by its pid file) and waits for it to exit.
// While it is down every Kruise API call fails, and so do discovery, namespace deletion
// and garbage collection; start it again before the test ends.
func (c *Cluster) StopKruiseAPIServer(t testing.TB) {
	t.Helper()
	if err := c.script(stackDownTimeout, "local-down.sh", "kruise-apiserver"); err != nil {
		t.Fatalf("stop kruise-apiserver: %v", err)
	}
}

// StartKruiseAPIServer starts kruise-apiserver with the flags hack/local-up.sh uses and
// waits for /readyz and for its APIServices to be Available.
func (c *Cluster) StartKruiseAPIServer(t testing.TB) {
	t.Helper()
	if !c.HasKruiseAPIServer() {
		t.Fatalf("%s/kruise-apiserver is not built: run `make build`", c.BinDir)
	}
	if err := c.script(stackUpTimeout, "local-up.sh", "start", "kruise-apiserver"); err != nil {
		printTail(os.Stderr, filepath.Join(c.LocalDir, "logs", "local-up.log"), 30)
		t.Fatalf("start kruise-apiserver: %v", err)
	}
	if err := c.waitAPIServicesAvailable(context.Background(), time.Minute); err != nil {
		t.Fatal(err)
	}
}

// RestartKruiseAPIServer stops and starts kruise-apiserver; its data (embedded etcd) stays.
func (c *Cluster) RestartKruiseAPIServer(t testing.TB) {
	t.Helper()
	c.StopKruiseAPIServer(t)
	c.StartKruiseAPIServer(t)
}

// APIServiceAvailable reports whether the APIService's Available condition is True, and
// its message otherwise.
func (c *Cluster) APIServiceAvailable(ctx context.Context, name string) (bool, string, error) {
	obj, err := c.Dynamic.Resource(apiServiceGVR).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return false, "", err
	}
	conditions, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	for _, raw := range conditions {
		cond, _ := raw.(map[string]interface{})
		if cond["type"] == "Available" {
			msg, _ := cond["message"].(string)
			return cond["status"] == "True", msg, nil
		}
	}
	return false, "no Available condition yet", nil
}

// RegisteredKruiseAPIServices returns the KruiseAPIServices that exist: hack/local-up.sh
// registers only the group/versions kruise-apiserver serves.
func (c *Cluster) RegisteredKruiseAPIServices(ctx context.Context) ([]string, error) {
	var names []string
	for _, name := range KruiseAPIServices {
		_, err := c.Dynamic.Resource(apiServiceGVR).Get(ctx, name, metav1.GetOptions{})
		switch {
		case err == nil:
			names = append(names, name)
		case !apierrors.IsNotFound(err):
			return nil, err
		}
	}
	return names, nil
}

// waitAPIServicesAvailable waits for every registered Kruise APIService (at least one).
func (c *Cluster) waitAPIServicesAvailable(ctx context.Context, timeout time.Duration) error {
	names, err := c.RegisteredKruiseAPIServices(ctx)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("kruise-apiserver runs but none of %v is registered", KruiseAPIServices)
	}
	deadline := time.Now().Add(timeout)
	for _, name := range names {
		for {
			ok, msg, err := c.APIServiceAvailable(ctx, name)
			if ok {
				break
			}
			if time.Now().After(deadline) {
				if err != nil {
					msg = err.Error()
				}
				return fmt.Errorf("APIService %s not Available within %s: %s", name, timeout, msg)
			}
			time.Sleep(250 * time.Millisecond)
		}
	}
	return nil
}

func (c *Cluster) connect() error {
	cfg, err := clientcmd.BuildConfigFromFlags("", c.Kubeconfig)
	if err != nil {
		return fmt.Errorf("load %s: %w", c.Kubeconfig, err)
	}
	cfg.QPS, cfg.Burst = 200, 400
	cfg.UserAgent = "kruise-native-integration-test"
	if c.Client, err = kubernetes.NewForConfig(cfg); err != nil {
		return err
	}
	if c.Dynamic, err = dynamic.NewForConfig(cfg); err != nil {
		return err
	}
	c.Config = cfg
	c.Ports, err = c.readPorts()
	return err
}

// readPorts parses `hack/local-up.sh ports` (name=port lines).
func (c *Cluster) readPorts() (map[string]int, error) {
	cmd := exec.Command(filepath.Join(c.Root, "hack", "local-up.sh"), "ports")
	cmd.Env = c.env
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
		p, err := strconv.Atoi(value)
		if err != nil {
			return nil, fmt.Errorf("hack/local-up.sh ports: bad line %q", line)
		}
		ports[name] = p
	}
	return ports, nil
}

// script runs hack/<name> with the stack's environment; output goes to logs/local-up.log.
func (c *Cluster) script(timeout time.Duration, name string, args ...string) error {
	logDir := filepath.Join(c.LocalDir, "logs")
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return err
	}
	logFile, err := os.OpenFile(filepath.Join(logDir, "local-up.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()
	fmt.Fprintf(logFile, "===== %s hack/%s %s\n", time.Now().UTC().Format(time.RFC3339), name, strings.Join(args, " "))
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(c.Root, "hack", name), args...)
	cmd.Env = c.env
	cmd.Dir = c.Root
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// The components run in their own sessions (setsid), so a timeout only kills the script.
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("hack/%s did not finish within %s", name, timeout)
		}
		return fmt.Errorf("hack/%s %s: %w (output: %s)", name, strings.Join(args, " "), err, logFile.Name())
	}
	return nil
}

// saveLogs copies LOCAL_DIR/logs to dest and says where.
func (c *Cluster) saveLogs(dest string) {
	src := filepath.Join(c.LocalDir, "logs")
	_ = os.RemoveAll(dest)
	if err := copyDir(src, dest); err != nil {
		fmt.Fprintf(os.Stderr, "framework: copying logs to %s: %v\n", dest, err)
		return
	}
	fmt.Fprintf(os.Stderr, "framework: FAILED — control plane logs copied to %s\n", dest)
}

// guard is a helper process that stops the stack if this test binary dies without
// doing it: it waits for EOF on its stdin, which only happens when our end closes.
type guard struct{ w io.WriteCloser }

func (c *Cluster) startGuard(logDest string, keep bool) (*guard, error) {
	if keep {
		return &guard{}, nil
	}
	// After a clean exit LOCAL_DIR is gone and the guard does nothing.
	script := `cat >/dev/null
[ -d "$LOCAL_DIR" ] || exit 0
mkdir -p "$GUARD_LOG_DEST" && cp -r "$LOCAL_DIR/logs/." "$GUARD_LOG_DEST/" 2>/dev/null
"$GUARD_ROOT/hack/local-down.sh" >>"$GUARD_LOG_DEST/local-up.log" 2>&1
rm -rf "$LOCAL_DIR"`
	cmd := exec.Command("bash", "-c", script)
	cmd.Env = append(c.env, "GUARD_LOG_DEST="+logDest, "GUARD_ROOT="+c.Root)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start guard: %w", err)
	}
	go func() { _ = cmd.Wait() }()
	return &guard{w: w}, nil
}

func (g *guard) done() {
	if g.w != nil {
		_ = g.w.Close()
	}
}

// choosePortBase picks PORT_BASE from the process id, moving on while any of its ports is
// taken, so concurrent test binaries and `make up` (standard ports) do not collide.
func choosePortBase() (int, error) {
	start := os.Getpid() % portBaseSlots
	for i := 0; i < portBaseSlots; i++ {
		base := portBaseMin + ((start+i)%portBaseSlots)*portSpan
		if portsFree(base, portSpan) {
			return base, nil
		}
	}
	return 0, errors.New("no free block of ports between 20000 and 32000")
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

// repoRoot walks up from the working directory (a test's package directory) to the
// directory holding hack/local-up.sh.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "hack", "local-up.sh")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("cannot find the repository root (hack/local-up.sh) above the working directory")
		}
		dir = parent
	}
}

// packageName names the test package for _output/test-logs: its directory below
// test/integration (or below the repository root).
func packageName(root string) string {
	wd, err := os.Getwd()
	if err != nil {
		return "unknown"
	}
	rel, err := filepath.Rel(filepath.Join(root, "test", "integration"), wd)
	if err != nil || strings.HasPrefix(rel, "..") {
		if rel, err = filepath.Rel(root, wd); err != nil {
			return filepath.Base(wd)
		}
	}
	return rel
}

// namespacePrefix turns a test name into a DNS label prefix for generateName.
func namespacePrefix(testName string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(testName) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), "-")
	for strings.Contains(s, "--") {
		s = strings.ReplaceAll(s, "--", "-")
	}
	if len(s) > 40 {
		s = strings.TrimRight(s[:40], "-")
	}
	if s == "" {
		s = "test"
	}
	return "it-" + s + "-"
}

func copyDir(src, dst string) error {
	return filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(target)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

func printTail(w io.Writer, path string, n int) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	var lines []string
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 64*1024), 1024*1024)
	for s.Scan() {
		lines = append(lines, s.Text())
		if len(lines) > n {
			lines = lines[1:]
		}
	}
	fmt.Fprintf(w, "----- last %d lines of %s -----\n%s\n-----\n", len(lines), path, strings.Join(lines, "\n"))
}
