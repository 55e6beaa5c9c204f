package localstack

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

var requiredTools = []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "kubectl"}

func (s *Stack) checkTools() error {
	var missing []string
	for _, t := range requiredTools {
		if !s.haveBin(t) {
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("missing in %s: %s; run 'make tools'", s.BinDir, strings.Join(missing, " "))
	}
	if _, err := exec.LookPath("openssl"); err != nil {
		return errors.New("openssl is required (hack/lib/certs.sh makes the certificates with it)")
	}
	return nil
}

var controlPlane = []string{Etcd, KubeAPIServer, KubeControllerManager, KubeScheduler, Kwok}

// kruiseAPIServers are the kruise-apiserver processes: one, or the HA replicas.
func (s *Stack) kruiseAPIServers() []string {
	if !s.HA {
		return []string{KruiseAPIServer}
	}
	var out []string
	for i := range s.Ports.KruiseAPIServerReplicas {
		out = append(out, Replica(KruiseAPIServer, i))
	}
	return out
}

// KruiseControllers are the kruise-controller processes: one, or the HA replicas.
func (s *Stack) KruiseControllers() []string {
	if !s.HA {
		return []string{KruiseController}
	}
	var out []string
	for i := range s.Ports.KruiseControllerReplicas {
		out = append(out, Replica(KruiseController, i))
	}
	return out
}

// KruiseAPIServers are the kruise-apiserver processes: one, or the HA replicas.
func (s *Stack) KruiseAPIServers() []string { return s.kruiseAPIServers() }

// EtcdMembers are the HA etcd members (none without HA).
func (s *Stack) EtcdMembers() []string {
	var out []string
	for i := range s.Ports.EtcdMembers {
		out = append(out, Replica(KruiseEtcd, i))
	}
	return out
}

func (s *Stack) nodeDaemons() []string {
	var out []string
	for i := 0; i < s.Nodes; i++ {
		out = append(out, NodeDaemonPrefix+NodeName(i))
	}
	return out
}

// Components are every component this stack runs, in start order.
func (s *Stack) Components() []string {
	out := append([]string(nil), controlPlane...)
	if s.haveBin(KruiseAPIServer) {
		out = append(out, s.EtcdMembers()...)
		out = append(out, s.kruiseAPIServers()...)
		if s.HA {
			out = append(out, LoadBalancer)
		}
	}
	if s.haveBin(KruiseController) {
		out = append(out, s.KruiseControllers()...)
	}
	if s.haveBin(NodeDaemonBin) {
		out = append(out, s.nodeDaemons()...)
	}
	return out
}

// Up starts whatever is not running yet and waits until all of it is ready
// (idempotent: a complete stack says "already up").
func (s *Stack) Up(ctx context.Context) error {
	if err := s.checkTools(); err != nil {
		return err
	}
	wanted := s.Components()
	allRunning := true
	for _, c := range wanted {
		if _, ok := s.PID(c); !ok {
			allRunning = false
			break
		}
	}
	if allRunning {
		if check, err := s.httpCheck(fmt.Sprintf("https://127.0.0.1:%d/readyz", s.Ports.KubeAPIServer), "ca.crt", "admin"); err == nil && check(ctx) == nil {
			s.logf("already up: %s", strings.Join(wanted, " "))
			s.printDone()
			return nil
		}
	}
	// every port of every component still to start, before starting any of them
	for _, c := range wanted {
		if _, ok := s.PID(c); !ok {
			if err := s.checkPortsFree(c); err != nil {
				return err
			}
		}
	}
	start := time.Now()
	if err := s.ensurePKI(ctx); err != nil {
		return err
	}
	if err := s.ensureKubeconfigs(); err != nil {
		return err
	}
	if err := s.writePortsEnv(); err != nil {
		return err
	}
	for _, c := range controlPlane {
		if err := s.startOne(ctx, c); err != nil {
			return err
		}
	}
	if err := s.ensureNodes(ctx); err != nil {
		return err
	}
	baseDone := false
	base := func() error {
		if baseDone {
			return nil
		}
		baseDone = true
		return s.ensureKruiseBase(ctx)
	}
	if s.haveBin(KruiseAPIServer) {
		if err := base(); err != nil {
			return err
		}
		if err := s.startKruiseAPIServers(ctx); err != nil {
			return err
		}
		last := s.apiServerComponent()
		if err := s.ensureAPIServices(ctx, last); err != nil {
			return err
		}
		if err := s.waitAPIServices(ctx, last); err != nil {
			return err
		}
	} else {
		// never leave an APIService without a server: discovery would fail, and with it
		// namespace deletion and garbage collection; nor a Pod webhook
		s.removeAPIServices(ctx)
		_ = s.kubectl(ctx, nil, "delete", "mutatingwebhookconfiguration,validatingwebhookconfiguration", "kruise-pod-webhook", "--ignore-not-found")
		s.logf("no %s: control plane only (run 'make build' for Kruise)", s.bin(KruiseAPIServer))
	}
	if s.haveBin(KruiseController) {
		if err := base(); err != nil {
			return err
		}
		for _, c := range s.KruiseControllers() {
			if err := s.startOne(ctx, c); err != nil {
				return err
			}
		}
	}
	if s.haveBin(NodeDaemonBin) {
		if err := base(); err != nil {
			return err
		}
		// start them all, then watch them all at once
		var started []string
		for _, c := range s.nodeDaemons() {
			if _, ok := s.PID(c); ok {
				s.logf("%s already running", c)
				continue
			}
			if err := s.startNodeDaemon(ctx, strings.TrimPrefix(c, NodeDaemonPrefix)); err != nil {
				return err
			}
			started = append(started, c)
		}
		if len(started) > 0 {
			if err := s.waitNodeDaemons(ctx, started...); err != nil {
				return err
			}
		}
	}
	s.logf("up in %ds", int(time.Since(start).Seconds()))
	s.printDone()
	return nil
}

// apiServerComponent is the component kube-apiserver reaches Kruise through.
func (s *Stack) apiServerComponent() string {
	if s.HA {
		return LoadBalancer
	}
	return KruiseAPIServer
}

// startKruiseAPIServers starts kruise-apiserver, or with HA the etcd members (all, then
// waits: a new cluster needs a quorum), the replicas and the load balancer.
func (s *Stack) startKruiseAPIServers(ctx context.Context) error {
	if !s.HA {
		return s.startOne(ctx, KruiseAPIServer)
	}
	var starting []int
	for i, name := range s.EtcdMembers() {
		if pid, ok := s.PID(name); ok {
			s.logf("%s already running (pid %d)", name, pid)
			continue
		}
		if err := s.startEtcdMember(i); err != nil {
			return err
		}
		starting = append(starting, i)
	}
	for _, i := range starting {
		if err := s.waitEtcdMember(ctx, i); err != nil {
			return err
		}
	}
	for _, c := range s.kruiseAPIServers() {
		if err := s.startOne(ctx, c); err != nil {
			return err
		}
	}
	return s.startOne(ctx, LoadBalancer)
}

// startOne starts a component unless it already runs.
func (s *Stack) startOne(ctx context.Context, c string) error {
	if pid, ok := s.PID(c); ok {
		s.logf("%s already running (pid %d)", c, pid)
		return nil
	}
	if base, i, ok := splitReplica(c); ok && s.HA {
		switch base {
		case KruiseAPIServer:
			if i < len(s.Ports.KruiseAPIServerReplicas) {
				return s.startKruiseAPIServer(ctx, c)
			}
		case KruiseController:
			if i < len(s.Ports.KruiseControllerReplicas) {
				return s.startKruiseController(ctx, c)
			}
		case KruiseEtcd:
			if i < len(s.Ports.EtcdMembers) {
				if err := s.startEtcdMember(i); err != nil {
					return err
				}
				return s.waitEtcdMember(ctx, i)
			}
		}
	}
	switch {
	case c == Etcd:
		return s.startEtcd(ctx)
	case c == KubeAPIServer:
		return s.startKubeAPIServer(ctx)
	case c == KubeControllerManager:
		return s.startKubeControllerManager(ctx)
	case c == KubeScheduler:
		return s.startKubeScheduler(ctx)
	case c == Kwok:
		return s.startKwok(ctx)
	case c == KruiseAPIServer && !s.HA:
		return s.startKruiseAPIServer(ctx, c)
	case c == KruiseController && !s.HA:
		return s.startKruiseController(ctx, c)
	case c == LoadBalancer && s.HA:
		return s.startLoadBalancer(ctx)
	case strings.HasPrefix(c, NodeDaemonPrefix):
		if err := s.startNodeDaemon(ctx, strings.TrimPrefix(c, NodeDaemonPrefix)); err != nil {
			return err
		}
		return s.waitNodeDaemons(ctx, c)
	}
	return fmt.Errorf("unknown component '%s' (%s)", c, strings.Join(s.knownNames(), ", "))
}

func (s *Stack) knownNames() []string {
	names := append([]string(nil), controlPlane...)
	if s.HA {
		names = append(names, s.EtcdMembers()...)
		names = append(names, s.kruiseAPIServers()...)
		names = append(names, LoadBalancer)
		names = append(names, s.KruiseControllers()...)
	} else {
		names = append(names, KruiseAPIServer, KruiseController)
	}
	return append(names, NodeDaemonPrefix+"<node>")
}

// Start starts one component of an existing stack (after Stop or Kill) with the flags Up
// uses, and waits until it is ready; for kruise-apiserver also for its APIServices.
func (s *Stack) Start(ctx context.Context, c string) error {
	if err := s.checkTools(); err != nil {
		return err
	}
	if _, err := os.Stat(s.Kubeconfig()); err != nil {
		return fmt.Errorf("no stack in %s; run make up first", s.LocalDir)
	}
	// keeps every existing file; adds what a stack made by an older version lacks
	if err := s.ensurePKI(ctx); err != nil {
		return err
	}
	if err := s.startOne(ctx, c); err != nil {
		return err
	}
	if base, _, ok := splitReplica(c); ok && base == KruiseAPIServer && s.HA {
		// back in the pool once HAProxy's health check passes again
		return s.poll(ctx, c, "HAProxy to send it traffic", func(ctx context.Context) error {
			up, err := s.LoadBalanced(ctx, c)
			if err == nil && !up {
				err = fmt.Errorf("%s: server %s is not up", LoadBalancer, c)
			}
			return err
		})
	}
	if c == KruiseAPIServer && !s.HA {
		// a rebuilt server may serve other group/versions than before
		if err := s.ensureAPIServices(ctx, c); err != nil {
			return err
		}
		return s.waitAPIServices(ctx, c)
	}
	return nil
}

// Restart stops and starts a component.
func (s *Stack) Restart(ctx context.Context, c string) error {
	if err := s.Stop(ctx, c); err != nil {
		return err
	}
	return s.Start(ctx, c)
}

// stopOrder: Kruise first, then kwok, the controllers, kube-apiserver, etcd last.
func stopRank(name string) int {
	switch {
	case strings.HasPrefix(name, NodeDaemonPrefix):
		return 0
	case strings.HasPrefix(name, KruiseController):
		return 1
	case name == LoadBalancer:
		return 2
	case strings.HasPrefix(name, KruiseAPIServer):
		return 3
	case name == Kwok:
		return 4
	case name == KubeScheduler:
		return 5
	case name == KubeControllerManager:
		return 6
	case name == KubeAPIServer:
		return 7
	case strings.HasPrefix(name, KruiseEtcd):
		return 8
	case name == Etcd:
		return 9
	}
	return 10
}

// Down stops every component with a pid file in LocalDir, newest layer first; with clean
// it also removes the data, certificates and kubeconfigs (logs stay).
func (s *Stack) Down(ctx context.Context, clean bool) error {
	if _, err := os.Stat(s.LocalDir); err != nil {
		s.downf("nothing to stop (%s does not exist)", s.LocalDir)
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(s.LocalDir, "pids", "*.pid"))
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".pid"))
	}
	sort.SliceStable(names, func(i, j int) bool { return stopRank(names[i]) < stopRank(names[j]) })
	var errs []error
	for _, n := range names {
		if err := s.Stop(ctx, n); err != nil {
			errs = append(errs, err)
		}
	}
	if clean {
		entries, _ := os.ReadDir(s.LocalDir)
		for _, e := range entries {
			if e.Name() != "logs" {
				_ = os.RemoveAll(filepath.Join(s.LocalDir, e.Name()))
			}
		}
		s.downf("removed the data in %s (logs kept in %s)", s.LocalDir, filepath.Join(s.LocalDir, "logs"))
	}
	s.downf("done")
	return errors.Join(errs...)
}

// ComponentStatus is one line of Status.
type ComponentStatus struct {
	Name  string
	PID   int // 0: not running
	Ports []int
}

// Status lists the components, their pids and ports.
func (s *Stack) Status() []ComponentStatus {
	var out []ComponentStatus
	for _, c := range s.Components() {
		pid, _ := s.PID(c)
		out = append(out, ComponentStatus{Name: c, PID: pid, Ports: s.Ports.componentPorts(c)})
	}
	return out
}

func (s *Stack) printDone() {
	fmt.Fprintf(s.Out, "\nLocal control plane is up (%s). Logs: %s/<component>.log\n", s.LocalDir, filepath.Join(s.LocalDir, "logs"))
	fmt.Fprintf(s.Out, "export KUBECONFIG=%s\n", s.Kubeconfig())
	// _output/bin first: kubectl v1.36 and the kubectl-kruise plugin (`kubectl kruise ...`)
	fmt.Fprintf(s.Out, "export PATH=%s:$PATH\n", s.BinDir)
}

// writePortsEnv writes LOCAL_DIR/local.env (KEY=VALUE, for shells).
func (s *Stack) writePortsEnv() error {
	var b strings.Builder
	b.WriteString("# written by make up (internal/localstack); KEY=VALUE, shell readable\n")
	fmt.Fprintf(&b, "LOCAL_DIR=%s\nBIN_DIR=%s\nKUBECONFIG=%s\nPORT_BASE=%d\nNODES=%d\n", s.LocalDir, s.BinDir, s.Kubeconfig(), s.PortBase, s.Nodes)
	if s.HA {
		b.WriteString("HA=1\n")
	}
	for _, l := range s.Ports.Lines() {
		n, v, _ := strings.Cut(l, "=")
		fmt.Fprintf(&b, "PORT_%s=%s\n", strings.ToUpper(strings.ReplaceAll(n, "-", "_")), v)
	}
	return writeAtomic(filepath.Join(s.LocalDir, "local.env"), []byte(b.String()), 0o644)
}
