package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"

	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/internal/localstack"
	"github.com/kruise-native/kruise-native/test/bench/internal/audit"
	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
	"github.com/kruise-native/kruise-native/test/bench/internal/proc"
	"github.com/kruise-native/kruise-native/test/bench/internal/profile"
	"github.com/kruise-native/kruise-native/test/bench/internal/report"
)

// scale is the opt-in scale phase: the same number of small Deployments and CloneSets,
// each side alone, with both controllers at one client QPS/burst; first, what
// kube-apiserver adds to hold the same CloneSets as a CRD.
func (b *bench) scale(ctx context.Context) error {
	sides, err := scaleSides(b.f)
	if err != nil {
		return err
	}
	b.res.Notes = append(b.res.Notes, scaleNotes(b.f, sides, strconv.Itoa(b.f.scale.workloads))...)
	res, err := b.scaleAt(ctx, sides, b.f.scale.workloads)
	b.res.Scale = res
	return err
}

// scaleSides parses -scale-sides.
func scaleSides(f *flags) ([]string, error) {
	var sides []string
	for _, kind := range strings.Split(f.scale.sides, ",") {
		kind = strings.TrimSpace(kind)
		if kind != ctrlbench.ScaleDeployment && kind != ctrlbench.ScaleCloneSet {
			return nil, fmt.Errorf("-scale-sides: %q is neither %s nor %s", kind, ctrlbench.ScaleDeployment, ctrlbench.ScaleCloneSet)
		}
		sides = append(sides, kind)
	}
	return sides, nil
}

// scaleAt runs the scale phase with workloads on each of sides (scaleSides), in that
// order; it returns what it measured even when a step failed.
func (b *bench) scaleAt(ctx context.Context, sides []string, workloads int) (*report.ScaleResults, error) {
	logger := klog.FromContext(ctx).WithValues("workloads", workloads)
	ctx = klog.NewContext(ctx, logger)
	f := b.f
	res := &report.ScaleResults{
		Nodes: max(f.scale.nodes, f.nodes), Workloads: workloads, PodsEach: f.scale.pods,
		QPS: f.scale.qps, Burst: f.scale.burst, Idle: f.scale.idle.String(), RestartWindow: f.scale.restartWindow.String(),
		ImageChangePercent:               f.scale.imagePercent,
		KubeControllerManagerControllers: b.kcmControllers(),
		RSS: fmt.Sprintf("each process's RSS from /proc, the median of 1 s samples over %s, taken %s after a garbage collection forced through pprof's heap?gc=1 (kube-apiserver, kruise-apiserver; etcd is not Go-GC'd on demand)",
			f.scale.rssWindow, f.scale.rssSettle),
		ControllerRestartedPerSide: true,
	}
	reader, err := audit.NewReader(b.audit)
	if err != nil {
		return res, err
	}
	if res.Nodes > f.nodes {
		remove, err := ctrlbench.AddKwokNodes(ctx, b.kube, f.nodes, res.Nodes)
		if err != nil {
			return res, err
		}
		defer remove(context.WithoutCancel(ctx))
	}
	// Both controllers at the phase's QPS/burst, and back to the stack's afterwards.
	rate := fmt.Sprintf("--kube-api-qps=%d --kube-api-burst=%d", f.scale.qps, f.scale.burst)
	env := map[string]string{
		"kruise-controller":       strings.TrimSpace("KRUISE_CONTROLLER_ARGS=" + rate + " " + f.scale.controllerArgs),
		"kube-controller-manager": "KUBE_CONTROLLER_MANAGER_ARGS=" + rate,
	}
	for c, e := range env {
		if err := b.restart(ctx, c, e); err != nil {
			return res, err
		}
	}
	defer func() {
		ctx := context.WithoutCancel(ctx)
		for c, e := range map[string]string{
			"kruise-controller":       fmt.Sprintf("KRUISE_CONTROLLER_ARGS=--kube-api-qps=%d --kube-api-burst=%d", f.qps, f.burst),
			"kube-controller-manager": "KUBE_CONTROLLER_MANAGER_ARGS=",
		} {
			if err := b.restart(ctx, c, e); err != nil {
				logger.Error(err, "Restoring a controller's flags", "component", c)
			}
		}
	}()

	if res.CRD, err = b.crdMemory(ctx, workloads); err != nil {
		return res, fmt.Errorf("CRD memory: %w", err)
	}
	startKruiseController := func(ctx context.Context) error {
		return b.st.Start(ctx, "kruise-controller", env["kruise-controller"])
	}
	if res.Kruise, err = b.kruiseMemory(ctx, workloads, startKruiseController); err != nil {
		return res, fmt.Errorf("kruise-apiserver memory: %w", err)
	}
	opts := ctrlbench.ScaleOptions{
		Workloads: workloads, Pods: f.scale.pods, Idle: f.scale.idle, RestartWindow: f.scale.restartWindow,
		ImageChangePercent: f.scale.imagePercent, Timeout: f.scale.timeout, Workers: f.clients,
		DrainQuiet: f.scale.drainQuiet,
	}
	var errs []string
	// The sides run in -scale-sides order, and each controller watches every pod in the
	// cluster: kruise-controller after the Deployment side (or kube-controller-manager
	// after the CloneSet side) would carry heap from the other side's pods, gone by now.
	// So the side's controller is restarted just before the side starts, and its peak
	// RSS is its own side's.
	for _, kind := range sides {
		ctl := ctrlbench.ScaleController(kind)
		if err := b.restart(ctx, ctl, env[ctl]); err != nil {
			return res, fmt.Errorf("restarting %s before the %s side: %w", ctl, kind, err)
		}
		res.Order = append(res.Order, kind)
		senv := ctrlbench.ScaleEnv{
			Kube: b.kube, Kruise: b.kruise, Audit: reader, PIDs: b.pids, Servers: b.servers,
			StopController:  func(ctx context.Context) error { return b.stopAndFree(ctx, ctl) },
			StartController: func(ctx context.Context) error { return b.st.Start(ctx, ctl, env[ctl]) },
		}
		side, err := ctrlbench.RunScale(ctx, senv, kind, opts)
		res.Sides = append(res.Sides, side)
		if err != nil {
			if ctx.Err() != nil {
				return res, err
			}
			logger.Error(err, "Scale side failed", "workload", kind)
			errs = append(errs, fmt.Sprintf("%s: %v", kind, err))
		}
	}
	if len(errs) > 0 {
		return res, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return res, nil
}

// restart stops component and starts it with one extra environment setting.
func (b *bench) restart(ctx context.Context, component, env string) error {
	if err := b.stopAndFree(ctx, component); err != nil {
		return fmt.Errorf("stopping %s: %w", component, err)
	}
	if err := b.st.Start(ctx, component, env); err != nil {
		return fmt.Errorf("starting %s with %s: %w", component, env, err)
	}
	return nil
}

// stopAndFree stops component and waits until nothing listens on its port: right
// after the process is gone its listening socket can linger in /proc/net/tcp for a
// moment, and a start then refuses the port.
func (b *bench) stopAndFree(ctx context.Context, component string) error {
	if err := b.st.Stop(ctx, component); err != nil {
		return err
	}
	port, ok := b.st.Ports[component]
	if !ok {
		return nil
	}
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, time.Minute, true, func(context.Context) (bool, error) {
		return localstack.PortHolder(port) == "", nil // what Start checks
	})
	if err != nil {
		return fmt.Errorf("port %d of %s still taken a minute after it stopped: %w", port, component, err)
	}
	return nil
}

// servers forces a GC on both API servers, then reads their settled RSS (and etcd's).
func (b *bench) servers(ctx context.Context) map[string]proc.Steady {
	logger := klog.FromContext(ctx)
	heap := map[string]float64{}
	for _, t := range []profile.Target{{Name: "kube-apiserver", Config: b.st.Config}, {Name: "kruise-apiserver", Config: b.kruiseAPIServerConfig()}} {
		live, err := profile.ForceGC(ctx, t)
		if err != nil {
			logger.Error(err, "No forced GC: the reading includes uncollected garbage", "server", t.Name)
			continue
		}
		heap[t.Name] = live / (1 << 20)
	}
	all := b.pids()
	pids := map[string]int{}
	for _, c := range []string{"kube-apiserver", "kruise-apiserver", "etcd"} {
		if pid, ok := all[c]; ok {
			pids[c] = pid
		}
	}
	out := proc.SampleSteady(ctx, pids, b.f.scale.rssSettle, b.f.scale.rssWindow)
	for name, s := range out {
		s.HeapMiB, s.ForcedGC = heap[name]
		out[name] = s
	}
	logger.Info("Server memory", "rss", out)
	return out
}

// kcmControllers is what kube-controller-manager's --controllers says as it runs now.
func (b *bench) kcmControllers() string {
	pid, err := b.st.PID("kube-controller-manager")
	if err != nil {
		return "unknown (not running)"
	}
	cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return "unknown"
	}
	for _, a := range strings.Split(string(cmd), "\x00") {
		if v, ok := strings.CutPrefix(a, "--controllers="); ok {
			return "--controllers=" + v
		}
	}
	return `no --controllers flag, so its default "*": every controller enabled by default`
}

// scaleNotes explain the scale phase run with workloads on each side ("N" when it
// ran at several sizes).
func scaleNotes(f *flags, sides []string, workloads string) []string {
	var order []string
	for _, kind := range sides {
		order = append(order, fmt.Sprintf("%s %ss", workloads, kind))
	}
	return []string{
		fmt.Sprintf("Scale phase: %s, in that order (-scale-sides); CloneSets InPlaceIfPossible, maxUnavailable 25%% like the Deployments; each workload of %d pods in one namespace, with its own selector. The other side's workloads, pods and namespace are gone before a side starts, and the side's controller (kube-controller-manager for the Deployments, kruise-controller for the CloneSets) is restarted just before it, so its peak RSS holds nothing of the side that ran earlier. kwok's immediate mode on %d nodes (beyond the stack's %d, added without node daemons).", strings.Join(order, ", then "), f.scale.pods, max(f.scale.nodes, f.nodes), f.nodes),
		"All ready: from the benchmark's first create (the creates, by its own unthrottled client, are not counted as writes) until the workloads' status (watched through an informer) says every pod of every workload is updated and ready; then the pods themselves are listed and must agree.",
		fmt.Sprintf("Idle: the window starts once the side's namespace has had no write for %s (the controllers' events of the ready step trail it: kruise-controller writes events through its own client at 10 QPS, so that they never take QPS from pod writes); that drain is reported apart, and the window then wants 0 writes.", f.scale.drainQuiet),
		"Writes are kube-apiserver's audit events in the side's namespace (so leases, node status and other namespaces are not in them). Controller writes: kruise-controller, or kube-controller-manager's deployment and replicaset controllers.",
		"Controller restart: the process is stopped (SIGTERM), a probe workload of 1 pod in its own namespace is scaled to 2, and the process started again; 'health endpoint up' is until /readyz (kruise-controller) or /healthz (kube-controller-manager) answers, 'probe done' until the probe's status says 2 ready. Writes in the side's namespace are counted from the start over the restart window: want 0. Startup CPU and peak RSS are the new process's own since it started.",
		fmt.Sprintf("Image change: %.0f %% of the workloads (every %dth) get a new image at once; CloneSets update in place, Deployments roll new pods. Writes per pod are over the changed workloads' pods.", f.scale.imagePercent, max(1, int(100/max(f.scale.imagePercent, 0.01)))),
		"API server memory: before both sides, on the fresh stack: kube-apiserver's settled RSS before the CRD (generated from our types, in bench.kruise.io), with the CRD and no objects, and with the CloneSets (no status: no controller acts on them) created in it; they and the CRD are deleted after. Then the same CloneSets are created in kruise-apiserver with kruise-controller stopped, so that both servers hold the same objects after the same writes; its figure includes its embedded etcd (the CRD's objects live in the separate etcd process, shown apart). The memory targets compare these two. The rows 'after the idle window' are the servers after each side, with the controllers' writes and the pods.",
		"The machine is shared with other sessions' stacks and tests: wall times and CPU seconds are pessimistic and vary between runs; write counts do not.",
	}
}
