package ctrlbench

import (
	"context"
	"fmt"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"

	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/bench/internal/audit"
	"github.com/kruise-native/kruise-native/test/bench/internal/proc"
)

// ScaleEnv is what a side of the scale phase runs against.
type ScaleEnv struct {
	Kube   kubernetes.Interface
	Kruise kruiseclient.Interface
	Audit  *audit.Reader
	// PIDs of the processes whose cost is reported, read anew at each step (the
	// restart gives the controller a new one).
	PIDs func() map[string]int
	// StopController and StartController stop and start the side's controller
	// process; Start returns once its health endpoint answers.
	StopController, StartController func(ctx context.Context) error
	// Servers reads the API servers' settled memory (after a forced GC where possible).
	Servers func(ctx context.Context) map[string]proc.Steady
}

// ScaleOptions size a side.
type ScaleOptions struct {
	Workloads, Pods int
	Idle            time.Duration
	// RestartWindow: how long after the restarted process starts its writes are
	// counted (at least until the probe is done + settle).
	RestartWindow time.Duration
	// ImageChangePercent of the workloads get a new image at once.
	ImageChangePercent float64
	// Timeout bounds each wait.
	Timeout time.Duration
	// Workers: the benchmark's concurrent creates and patches.
	Workers int
	// DrainQuiet: the idle window starts once the side's namespace has had no write
	// for this long (the event backlog of the ready step written).
	DrainQuiet time.Duration
}

// ScaleController is the process that runs kind's controller.
func ScaleController(kind string) string {
	if kind == ScaleDeployment {
		return "kube-controller-manager"
	}
	return "kruise-controller"
}

// ScaleControllerClients are the audit clients of kind's controller.
func ScaleControllerClients(kind string) []string { return controllerClients(kind) }

// RunScale measures one side: o.Workloads workloads of o.Pods pods made ready, an idle
// window, a controller restart, and an image change of o.ImageChangePercent of them.
// Its namespaces are removed (and their pods gone) before it returns.
func RunScale(ctx context.Context, env ScaleEnv, kind string, o ScaleOptions) (*ScaleSide, error) {
	ns := "bench-scale-" + strings.ToLower(kind)
	logger := klog.FromContext(ctx).WithValues("workload", kind, "namespace", ns)
	ctx = klog.NewContext(ctx, logger)
	side := &ScaleSide{Workload: kind, Controller: ScaleController(kind), Workloads: o.Workloads, PodsEach: o.Pods}
	if err := createNamespace(ctx, env.Kube, ns); err != nil {
		return side, err
	}
	f, err := newFleet(ctx, kind, ns, o.Pods, env.Kube, env.Kruise)
	if err != nil {
		return side, err
	}
	defer func() {
		f.close()
		logger.Info("Removing the side's workloads and pods")
		if err := f.remove(ctx, o.Timeout); err != nil {
			side.Errors = append(side.Errors, err.Error())
			logger.Error(err, "Cleanup")
		}
	}()
	total := o.Workloads * o.Pods
	side.ServersBefore = env.Servers(ctx)

	logger.Info("Creating", "workloads", o.Workloads, "podsEach", o.Pods)
	side.Ready, err = scaleStep(ctx, env, kind, ns, total,
		func(ctx context.Context) error { return f.createAll(ctx, o.Workloads, o.Workers) },
		func(ctx context.Context) error { return f.waitDone(ctx, o.Workloads, o.Timeout) })
	logger.Info("Ready", "seconds", side.Ready.Seconds, "controllerWritesPerPod", side.Ready.ControllerWritesPerPod,
		"allWritesPerPod", side.Ready.AllWritesPerPod, "error", err)
	if err != nil {
		return side, fmt.Errorf("ready: %w", err)
	}
	if side.PodsReady, err = checkPods(ctx, env.Kube, ns, total, map[string]int{defaultImage: total}); err != nil {
		return side, fmt.Errorf("ready: %w", err)
	}

	if side.Drain, err = drain(ctx, env, ns, o.DrainQuiet, o.Timeout); err != nil {
		return side, fmt.Errorf("drain: %w", err)
	}
	logger.Info("Idle", "window", o.Idle, "afterDrainSeconds", side.Drain.Seconds, "drainWrites", side.Drain.WritesTotal)
	side.Idle, err = scaleStep(ctx, env, kind, ns, total, func(context.Context) error { return nil },
		func(ctx context.Context) error { return sleep(ctx, o.Idle) })
	if err != nil {
		return side, fmt.Errorf("idle: %w", err)
	}
	logger.Info("Idle done", "writes", side.Idle.AllWritesTotal, "controllerWrites", side.Idle.ControllerWritesTotal)
	side.ServersIdle = env.Servers(ctx)

	if side.Restart, err = restart(ctx, env, kind, ns, total, o); err != nil {
		return side, fmt.Errorf("restart: %w", err)
	}
	logger.Info("Restart done", "readySeconds", side.Restart.ReadySeconds, "actedSeconds", side.Restart.ActedSeconds,
		"writes", side.Restart.AllWritesTotal, "probeWrites", side.Restart.ProbeWritesTotal)

	n := max(1, int(float64(o.Workloads)*o.ImageChangePercent/100+0.5))
	side.ImageChanged = n
	stride := o.Workloads / n
	step, err := scaleStep(ctx, env, kind, ns, n*o.Pods,
		func(ctx context.Context) error {
			return f.each(ctx, n, o.Workers, func(ctx context.Context, i int) error {
				return f.setImage(ctx, fleetName(i*stride), rolloutImage)
			})
		},
		func(ctx context.Context) error { return f.waitDone(ctx, o.Workloads, o.Timeout) })
	side.ImageChange = &step
	logger.Info("Image change done", "workloads", n, "seconds", step.Seconds, "controllerWritesPerPod", step.ControllerWritesPerPod, "error", err)
	if err != nil {
		return side, fmt.Errorf("image change: %w", err)
	}
	want := map[string]int{defaultImage: total - n*o.Pods, rolloutImage: n * o.Pods}
	if side.PodsImageChange, err = checkPods(ctx, env.Kube, ns, total, want); err != nil {
		return side, fmt.Errorf("image change: %w", err)
	}
	return side, nil
}

// scaleStep measures act then wait: time, the writes in ns, and process usage.
func scaleStep(ctx context.Context, env ScaleEnv, kind, ns string, pods int, act, wait func(context.Context) error) (ScaleStep, error) {
	s := ScaleStep{Pods: pods}
	if _, err := env.Audit.Count(audit.Filter{}); err != nil { // skip what came before
		return s, err
	}
	usage := proc.StartWatch(ctx, env.PIDs())
	start := time.Now()
	if err := act(ctx); err != nil {
		usage.Stop()
		return s, err
	}
	err := wait(ctx)
	end := time.Now()
	s.Seconds = round(end.Sub(start).Seconds())
	if err != nil {
		if ctx.Err() != nil {
			usage.Stop()
			return s, ctx.Err()
		}
		s.TimedOut = true
	}
	if serr := sleep(ctx, settle); serr != nil {
		usage.Stop()
		return s, serr
	}
	s.Processes = usage.Stop()
	counts, cerr := env.Audit.Count(audit.Filter{Namespace: ns, From: start, To: end.Add(settle)})
	if cerr != nil {
		return s, cerr
	}
	s.tally(kind, counts)
	return s, err
}

// restart stops the controller, scales the probe workload (its own namespace) by one
// pod meanwhile, starts the controller and times it until the probe is done. Writes in
// ns, where nothing changed, are counted from the start to the end of the window.
func restart(ctx context.Context, env ScaleEnv, kind, ns string, pods int, o ScaleOptions) (*ScaleRestart, error) {
	logger := klog.FromContext(ctx)
	probeNS := ns + "-probe"
	if err := createNamespace(ctx, env.Kube, probeNS); err != nil {
		return nil, err
	}
	probe, err := newFleet(ctx, kind, probeNS, 1, env.Kube, env.Kruise)
	if err != nil {
		return nil, err
	}
	defer func() {
		probe.close()
		if err := probe.remove(ctx, o.Timeout); err != nil {
			logger.Error(err, "Removing the probe")
		}
	}()
	if err := probe.create(ctx, "probe", 1); err != nil {
		return nil, err
	}
	if err := probe.waitDone(ctx, 1, o.Timeout); err != nil {
		return nil, fmt.Errorf("probe: %w", err)
	}
	ctl := ScaleController(kind)
	logger.Info("Restarting the controller", "process", ctl)
	if err := env.StopController(ctx); err != nil {
		return nil, fmt.Errorf("stopping %s: %w", ctl, err)
	}
	// From here on the controller must run again whatever fails: kube-controller-
	// manager also deletes namespaces, the probe's included.
	started := false
	defer func() {
		if !started {
			if err := env.StartController(context.WithoutCancel(ctx)); err != nil {
				logger.Error(err, "Starting the controller again after a failed restart", "process", ctl)
			}
		}
	}()
	if err := probe.scale(ctx, "probe", 2); err != nil {
		return nil, err
	}
	if _, err := env.Audit.Count(audit.Filter{}); err != nil { // skip what came before
		return nil, err
	}
	r := &ScaleRestart{ScaleStep: ScaleStep{Pods: pods}}
	start := time.Now()
	if err := env.StartController(ctx); err != nil {
		return nil, fmt.Errorf("starting %s: %w", ctl, err)
	}
	started = true
	r.ReadySeconds = round(time.Since(start).Seconds())
	err = probe.waitDone(ctx, 1, o.Timeout)
	r.ActedSeconds = round(time.Since(start).Seconds())
	r.Seconds = r.ActedSeconds
	if err != nil {
		if ctx.Err() != nil {
			return r, ctx.Err()
		}
		r.TimedOut = true
	}
	end := start.Add(max(o.RestartWindow, time.Since(start)+settle))
	if err := sleep(ctx, time.Until(end)); err != nil {
		return r, err
	}
	r.WindowSeconds = round(end.Sub(start).Seconds())
	if pid, ok := env.PIDs()[ctl]; ok {
		if s, err := proc.Read(pid); err == nil {
			r.StartupCPUSeconds = round(s.CPUSeconds)
			r.StartupPeakRSSMiB = round(float64(s.HWMBytes) / (1 << 20))
		}
	}
	counts, cerr := env.Audit.CountEach(audit.Filter{Namespace: ns, From: start, To: end}, audit.Filter{Namespace: probeNS, From: start, To: end})
	if cerr != nil {
		return r, cerr
	}
	r.tally(kind, counts[0])
	r.ProbeWrites = map[string]int{}
	r.ProbeWritesTotal, _ = controllerWrites(kind, counts[1], r.ProbeWrites)
	if err != nil {
		return r, fmt.Errorf("the probe: %w", err)
	}
	return r, nil
}

// checkPods counts the pods of ns and fails unless want live pods are all ready with
// the wanted images.
func checkPods(ctx context.Context, kube kubernetes.Interface, ns string, live int, images map[string]int) (*PodCount, error) {
	c, err := countPods(ctx, kube, ns)
	if err != nil {
		return nil, err
	}
	ok := c.Live == live && c.Ready == live
	for image, n := range images {
		ok = ok && c.ByImage[image] == n
	}
	if !ok {
		return &c, fmt.Errorf("the workloads' status says done but the pods say live=%d ready=%d images=%v (want %d, %v)", c.Live, c.Ready, c.ByImage, live, images)
	}
	return &c, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// drain waits until ns has had no write for quiet, at most limit: the controllers'
// events of the step before are written through their own rate-limited clients and
// trail it; the idle window measures what comes after them.
func drain(ctx context.Context, env ScaleEnv, ns string, quiet, limit time.Duration) (*ScaleDrain, error) {
	d := &ScaleDrain{Writes: audit.Counts{}}
	start := time.Now()
	last := start
	for {
		if err := sleep(ctx, 2*time.Second); err != nil {
			return d, err
		}
		counts, err := env.Audit.Count(audit.Filter{Namespace: ns, From: start.Add(-time.Minute), To: time.Now().Add(time.Hour)})
		if err != nil {
			return d, err
		}
		delete(counts, "bench")
		if n := counts.Total(); n > 0 {
			last = time.Now()
			d.WritesTotal += n
			for c, m := range counts {
				if d.Writes[c] == nil {
					d.Writes[c] = map[string]int{}
				}
				for k, v := range m {
					d.Writes[c][k] += v
				}
			}
		}
		d.Seconds = round(time.Since(start).Seconds())
		if time.Since(last) >= quiet {
			d.Drained = true
			return d, nil
		}
		if time.Since(start) > limit {
			klog.FromContext(ctx).Info("Writes still going on; the idle window starts anyway", "after", limit)
			return d, nil
		}
	}
}
