package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kruise-native/kruise-native/pkg/nodedaemon/criclient"
)

// Options configure Up.
type Options struct {
	// Root is the repository.
	Root string
	// Version tags the images (`make images`: v<VERSION>); the pause image of that tag is
	// containerd's sandbox image.
	Version string
	// Images are OCI image tarballs imported into containerd before kubelet starts.
	Images []string
	// Logf receives the harness's progress (t.Logf).
	Logf func(format string, args ...any)
	// KubeAPIServerArgs are added to kube-apiserver's flags (the node benchmark's audit
	// log).
	KubeAPIServerArgs []string
}

// Cluster is a running single-node cluster.
type Cluster struct {
	Layout   Layout
	Config   *rest.Config
	Client   kubernetes.Interface
	Registry *Registry

	cri    *criclient.Client
	procs  map[string]*Proc
	before *Snapshot
	logf   func(string, ...any)
	// apiServerArgs: Options.KubeAPIServerArgs.
	apiServerArgs []string

	downOnce sync.Once
	downErr  error
	sigStop  chan struct{}
}

// SkipError means this machine cannot run the cluster (not root, a missing program):
// the test skips with it rather than fails.
type SkipError struct{ Reason string }

func (e *SkipError) Error() string { return e.Reason }

// beforeFile keeps the host snapshot until the host has been restored.
func beforeFile() string { return filepath.Join(StateDir, "host-before.json") }

// Up brings the node up. On error everything already started is taken down again (the
// error then includes the teardown's). Down must be called in every other case; a
// SIGINT or SIGTERM while the cluster runs tears it down and exits the process.
func Up(ctx context.Context, o Options) (*Cluster, error) {
	if err := Preflight(o.Root); err != nil {
		return nil, err
	}
	l := NewLayout(o.Root)
	l.Version = o.Version
	c := &Cluster{Layout: l, procs: map[string]*Proc{}, logf: o.Logf, apiServerArgs: o.KubeAPIServerArgs}
	if c.logf == nil {
		c.logf = func(string, ...any) {}
	}
	if err := Recover(c.logf); err != nil {
		return nil, fmt.Errorf("a previous run's leftovers: %w", err)
	}
	if err := os.RemoveAll(l.LogDir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(l.LogDir, 0o755); err != nil {
		return nil, err
	}
	begin := time.Now()
	err := c.Step("snapshot of the host", func() error {
		s, err := TakeSnapshot()
		if err != nil {
			return err
		}
		c.before = s
		c.logf("host before: %s", s.Summary())
		return s.save(beforeFile())
	})
	if err != nil {
		return nil, err
	}
	c.handleSignals()
	if err := c.up(ctx, o); err != nil {
		if derr := c.Down(context.Background()); derr != nil {
			err = fmt.Errorf("%w; tearing down: %v", err, derr)
		}
		return nil, err
	}
	c.logf("node %s up in %s (kube-apiserver %s, registry %s, logs in %s)",
		NodeName, time.Since(begin).Round(100*time.Millisecond), c.Layout.APIServerURL(), c.Registry.Host, l.LogDir)
	return c, nil
}

func (c *Cluster) up(ctx context.Context, o Options) error {
	l := &c.Layout
	var err error
	if l.Ports, err = choosePorts(); err != nil {
		return err
	}
	c.logf("ports: kube-apiserver %d, etcd %d/%d, kcm %d, scheduler %d, kubelet %d (healthz %d), kube-proxy healthz %d metrics %d",
		l.Ports.KubeAPIServer, l.Ports.Etcd, l.Ports.EtcdPeer, l.Ports.KubeControllerManager, l.Ports.KubeScheduler,
		l.Ports.Kubelet, l.Ports.KubeletHealthz, l.Ports.KubeProxyHealthz, l.Ports.KubeProxyMetrics)
	steps := []struct {
		name string
		fn   func() error
	}{
		{"certificates and kubeconfigs", func() error {
			if err := makePKI(ctx, *l); err != nil {
				return err
			}
			return writeKubeconfigs(*l)
		}},
		{"node network and mounts (" + NodeDevice + " " + NodeIP + ", CNI " + PodBridge + " " + PodSubnet + ")", func() error {
			if err := setupNetwork(*l); err != nil {
				return err
			}
			if err := shareRunDir(*l); err != nil {
				return err
			}
			for _, s := range nodeSysctls {
				if err := setSysctl(s[0], s[1]); err != nil {
					return err
				}
			}
			return nil
		}},
		{"etcd", func() error { return c.startEtcd(ctx) }},
		{"kube-apiserver", func() error {
			if err := c.startKubeAPIServer(ctx); err != nil {
				return err
			}
			return c.connect()
		}},
		{"kube-controller-manager", func() error { return c.startKubeControllerManager(ctx) }},
		{"kube-scheduler", func() error { return c.startKubeScheduler(ctx) }},
		{"loopback registry", func() error {
			if c.Registry, err = startRegistry(ctx, *l); err != nil {
				return err
			}
			return writeRegistryHosts(*l, c.Registry.Host)
		}},
		{"containerd", func() error { return c.startContainerd(ctx) }},
		{"import images", func() error {
			if err := c.ImportImages(ctx, o.Images...); err != nil {
				return err
			}
			refs, err := c.ImageRefs(ctx)
			if err != nil {
				return err
			}
			c.logf("containerd holds %s", strings.Join(refs, ", "))
			return nil
		}},
		{"kubelet (to Node Ready)", func() error { return c.startKubelet(ctx) }},
		{"kube-proxy", func() error { return c.startKubeProxy(ctx) }},
	}
	for _, s := range steps {
		if err := c.Step(s.name, s.fn); err != nil {
			return err
		}
	}
	return nil
}

// Step runs fn and logs its name and duration.
func (c *Cluster) Step(name string, fn func() error) error {
	begin := time.Now()
	err := fn()
	d := time.Since(begin).Round(10 * time.Millisecond)
	if err != nil {
		c.logf("STEP %-45s FAILED after %s: %v", name, d, err)
		return fmt.Errorf("%s: %w", name, err)
	}
	c.logf("STEP %-45s %8s", name, d)
	return nil
}

func (c *Cluster) connect() error {
	cfg, err := clientcmd.BuildConfigFromFlags("", c.Layout.Kubeconfig())
	if err != nil {
		return err
	}
	cfg.QPS, cfg.Burst = 50, 100
	c.Config = cfg
	c.Client, err = kubernetes.NewForConfig(cfg)
	return err
}

// Pid is the process id of a program the harness started and still runs (etcd,
// kube-apiserver, kube-controller-manager, kube-scheduler, containerd, kubelet,
// kube-proxy), 0 for any other: the node benchmark reads their CPU time.
func (c *Cluster) Pid(name string) int {
	p := c.procs[name]
	if p == nil || p.cmd.Process == nil {
		return 0
	}
	if done, _ := p.Exited(); done {
		return 0
	}
	return p.cmd.Process.Pid
}

// Logf logs through the harness's logger.
func (c *Cluster) Logf(format string, args ...any) { c.logf(format, args...) }

// handleSignals tears the cluster down on SIGINT or SIGTERM and exits: a test binary
// interrupted by Ctrl-C would otherwise leave every program and host change behind.
func (c *Cluster) handleSignals() {
	ch := make(chan os.Signal, 1)
	c.sigStop = make(chan struct{})
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		defer signal.Stop(ch)
		select {
		case s := <-ch:
			c.logf("%s: tearing the cluster down before exiting", s)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			if err := c.Down(ctx); err != nil {
				fmt.Fprintln(os.Stderr, "teardown:", err)
			}
			os.Exit(2)
		case <-c.sigStop:
		}
	}()
}

// Preflight checks what the cluster needs from this machine: root, the programs, the
// CNI plugins, cgroup v1 hierarchies.
func Preflight(root string) error {
	if os.Geteuid() != 0 {
		return &SkipError{fmt.Sprintf("a real node needs root (containerd, kubelet, iptables, cgroups); running as uid %d", os.Geteuid())}
	}
	var missing []string
	for _, p := range []string{"containerd", "runc", "ctr", "iptables", "iptables-save", "iptables-restore", "ip", "openssl", "go"} {
		if _, err := exec.LookPath(p); err != nil {
			missing = append(missing, p)
		}
	}
	for _, p := range []string{"bridge", "host-local", "portmap", "loopback"} {
		if _, err := os.Stat(filepath.Join(CNIBinDir, p)); err != nil {
			missing = append(missing, filepath.Join(CNIBinDir, p))
		}
	}
	if len(missing) > 0 {
		return &SkipError{"missing " + strings.Join(missing, ", ") +
			" (make test-cluster installs containerd, runc, iptables and containernetworking-plugins)"}
	}
	l := NewLayout(root)
	for _, b := range []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubelet", "kube-proxy"} {
		if _, err := os.Stat(l.Bin(b)); err != nil {
			return fmt.Errorf("%s not built (make tools; hack/tools/build-node.sh): %w", l.Bin(b), err)
		}
	}
	if _, err := os.Stat(filepath.Join(cgroupRoot, "memory", "cgroup.procs")); err != nil {
		return &SkipError{"no cgroup v1 memory hierarchy at " + cgroupRoot + "/memory: the harness is written for this machine's cgroup v1 (kubelet with failCgroupV1: false)"}
	}
	return nil
}

// Recover cleans up after a run that was killed before its teardown: it ends what that
// run left running and restores the host from the snapshot it saved.
func Recover(logf func(string, ...any)) error {
	before, err := loadSnapshot(beforeFile())
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	logf("recover: an earlier run did not finish its teardown; restoring the host from its snapshot")
	killRecorded(Layout{State: StateDir}, logf)
	l := NewLayout("")
	if errs := restoreHost(l, before, logf); len(errs) > 0 {
		return errors.Join(errs...)
	}
	return finishRestore(before, logf)
}

// finishRestore compares the host with before; when they match it removes StateDir (and
// the snapshot with it).
func finishRestore(before *Snapshot, logf func(string, ...any)) error {
	after, err := TakeSnapshot()
	if err != nil {
		return err
	}
	if d := Diff(before, after); len(d) > 0 {
		return fmt.Errorf("the host differs from before the cluster (%d differences; snapshot kept in %s):\n  %s",
			len(d), beforeFile(), strings.Join(d, "\n  "))
	}
	if err := os.RemoveAll(StateDir); err != nil {
		return err
	}
	for _, d := range []string{StateDir, RunDir} {
		if _, err := os.Stat(d); err == nil {
			return fmt.Errorf("%s still exists", d)
		}
	}
	logf("host restored: matches the snapshot taken before the cluster (%s); %s and %s removed", after.Summary(), StateDir, RunDir)
	return nil
}
