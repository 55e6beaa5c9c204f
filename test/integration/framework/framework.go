// Package framework runs integration tests against a private local control plane: real
// etcd, kube-apiserver, kube-controller-manager and kube-scheduler, kwok for kubelets, and
// the Kruise binaries when they are built — the same stack `make up` starts, in its own
// directory and on its own ports, started through internal/localstack. MainHA starts the HA
// topology instead (etcd cluster, two kruise-apiserver replicas behind HAProxy, two
// kruise-controller replicas).
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

	"github.com/kruise-native/kruise-native/internal/localstack"
	"github.com/kruise-native/kruise-native/internal/reporoot"
)

// KruiseAPIServices are the APIServices kruise-apiserver serves.
var KruiseAPIServices = []string{"v1beta1.apps.kruise.io", "v1alpha1.apps.kruise.io", "v1beta1.policy.kruise.io", "v1alpha1.policy.kruise.io"}

var apiServiceGVR = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}

const (
	stackUpTimeout   = 5 * time.Minute
	stackDownTimeout = 2 * time.Minute
	// PORT_BASE candidates stay in 20000..31999: away from the standard ports `make up`
	// uses and below Linux's ephemeral port range (32768+); a stack uses
	// PORT_BASE..PORT_BASE+localstack.PortSpan-1 (PortSpanHA with HA)
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
	// localstack.Ports.Map, e.g. "kube-apiserver", "kruise-apiserver") to ports.
	PortBase int
	Ports    map[string]int
	// Nodes is the number of kwok nodes, named kwok-node-0..Nodes-1.
	Nodes int
	// Stack is the stack itself: typed ports, pids, logs, start/stop/kill of components.
	Stack *localstack.Stack

	Config  *rest.Config
	Client  kubernetes.Interface
	Dynamic dynamic.Interface
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
	os.Exit(run(m, false))
}

// MainHA is Main with the HA topology: a 3-member etcd cluster, two kruise-apiserver
// replicas behind HAProxy (installed from Debian's packages when missing) and two
// kruise-controller replicas with leader election.
func MainHA(m *testing.M) {
	os.Exit(run(m, true))
}

func run(m *testing.M, ha bool) int {
	root, err := reporoot.Find()
	if err != nil {
		fmt.Fprintf(os.Stderr, "framework: %v\n", err)
		return 1
	}
	binDir := filepath.Join(root, "_output", "bin")
	// A stale kruise-controller tests old code: a feature's test run alone fails as if
	// the feature were broken (issue 16's partitionedScaling was reverted for that).
	if err := localstack.CheckFresh(root, binDir, localstack.KruiseBins...); err != nil {
		fmt.Fprintf(os.Stderr, "framework: %v\n", err)
		return 1
	}
	nodes := 3
	if v := os.Getenv("NODES"); v != "" {
		if nodes, err = strconv.Atoi(v); err != nil || nodes < 0 {
			fmt.Fprintf(os.Stderr, "framework: NODES=%q is not a number >= 0\n", v)
			return 1
		}
	}
	span := localstack.PortSpan
	if ha {
		span = localstack.PortSpanHA
	}
	portBase, err := choosePortBase(span)
	if err != nil {
		fmt.Fprintf(os.Stderr, "framework: %v\n", err)
		return 1
	}
	localDir, err := os.MkdirTemp("", "kruise-it-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "framework: %v\n", err)
		return 1
	}
	// progress of the stack goes to logs/local-up.log, as `make up` prints it
	if err := os.MkdirAll(filepath.Join(localDir, "logs"), 0o755); err != nil {
		fmt.Fprintf(os.Stderr, "framework: %v\n", err)
		return 1
	}
	upLog, err := os.OpenFile(filepath.Join(localDir, "logs", "local-up.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "framework: %v\n", err)
		return 1
	}
	defer upLog.Close()
	// the environment's settings apply (KWOK_JOB_RUN_TIME_MS, KRUISE_CONTROLLER_ARGS, ...),
	// except where the stack lives and its topology
	o, err := localstack.FromEnv(root)
	if err != nil {
		fmt.Fprintf(os.Stderr, "framework: %v\n", err)
		return 1
	}
	o.LocalDir, o.BinDir, o.PortBase, o.Nodes, o.HA = localDir, binDir, portBase, nodes, ha
	o.Out, o.Err = upLog, upLog
	st := localstack.New(o)
	c := &Cluster{
		Root:       root,
		BinDir:     binDir,
		LocalDir:   localDir,
		Kubeconfig: st.Kubeconfig(),
		PortBase:   portBase,
		Ports:      st.Ports.Map(),
		Nodes:      nodes,
		Stack:      st,
	}
	logDest := filepath.Join(root, "_output", "test-logs", packageName(root))
	keep := os.Getenv("KEEP_STACK") == "1"

	// If this process dies without cleaning up (test timeout panic, SIGKILL, Ctrl-C), the
	// guard notices and stops the stack, keeping the logs.
	var guard *localstack.Guard
	if !keep {
		if guard, err = localstack.StartGuard(st, logDest); err != nil {
			fmt.Fprintf(os.Stderr, "framework: %v\n", err)
			return 1
		}
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
			ctx, cancel := context.WithTimeout(context.Background(), stackDownTimeout)
			if err := st.Down(ctx, false); err != nil {
				fmt.Fprintf(os.Stderr, "framework: stopping the stack: %v\n", err)
			}
			cancel()
			_ = os.RemoveAll(localDir)
		}
		guard.Release()
	}()

	start := time.Now()
	fmt.Fprintf(os.Stderr, "framework: starting the stack in %s (PORT_BASE=%d, NODES=%d, HA=%v)\n", localDir, portBase, nodes, ha)
	ctx, cancel := context.WithTimeout(context.Background(), stackUpTimeout)
	err = st.Up(ctx)
	cancel()
	if err != nil {
		fmt.Fprintf(os.Stderr, "framework: starting the stack failed: %v\n", err)
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

// StopKruiseAPIServer stops kruise-apiserver (every replica with HA) and waits for it to
// exit. While it is down every Kruise API call fails, and so do discovery, namespace
// deletion and garbage collection; start it again before the test ends.
func (c *Cluster) StopKruiseAPIServer(t testing.TB) {
	t.Helper()
	for _, name := range c.Stack.KruiseAPIServers() {
		c.StopComponent(t, name)
	}
}

// StartKruiseAPIServer starts kruise-apiserver (every replica with HA) with the flags
// `make up` uses and waits for /readyz and for its APIServices to be Available.
func (c *Cluster) StartKruiseAPIServer(t testing.TB) {
	t.Helper()
	if !c.HasKruiseAPIServer() {
		t.Fatalf("%s/kruise-apiserver is not built: run `make build`", c.BinDir)
	}
	for _, name := range c.Stack.KruiseAPIServers() {
		c.StartComponent(t, name)
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
	return nil
}

// saveLogs copies LOCAL_DIR/logs to dest and says where.
func (c *Cluster) saveLogs(dest string) {
	if err := c.Stack.CopyLogs(dest); err != nil {
		fmt.Fprintf(os.Stderr, "framework: copying logs to %s: %v\n", dest, err)
		return
	}
	fmt.Fprintf(os.Stderr, "framework: FAILED — control plane logs copied to %s\n", dest)
}

// choosePortBase picks PORT_BASE from the process id, moving on while any of its ports is
// taken, so concurrent test binaries and `make up` (standard ports) do not collide.
func choosePortBase(span int) (int, error) {
	start := os.Getpid() % portBaseSlots
	for i := 0; i < portBaseSlots; i++ {
		base := portBaseMin + ((start+i)%portBaseSlots)*localstack.PortSpan
		if base+span <= portBaseMin+portBaseSlots*localstack.PortSpan && portsFree(base, span) {
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
