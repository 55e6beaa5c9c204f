package ctrlbench

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/bench/internal/audit"
	"github.com/kruise-native/kruise-native/test/bench/internal/proc"
)

// Env is what the scenarios run against.
type Env struct {
	Kube   kubernetes.Interface
	Kruise kruiseclient.Interface
	Audit  *audit.Reader
	// PIDs of the processes whose cost is reported, by name.
	PIDs map[string]int
	// KruiseWrites scrapes kruise_controller_api_writes_total, keyed "resource verb".
	KruiseWrites func(ctx context.Context) (map[string]float64, error)
}

// Options of a scenario.
type Options struct {
	Pods int
	// PhaseTimeout bounds each phase; a phase that takes longer is reported as timed out.
	PhaseTimeout time.Duration
}

// settle is how long writes that follow "done" (a last status update) still count.
const settle = 3 * time.Second

// Phases measured: a scalable workload's scale-up, a daemon set's creation, then the
// image rollout of either.
const (
	PhaseScaleUp = "scale-up"
	PhaseCreate  = "create"
	PhaseRollout = "rollout"
)

// Run brings one workload from 0 to o.Pods pods (a scalable one is created empty and
// scaled; a daemon set, whose o.Pods must be its number of nodes, is created), rolls
// its image, and measures both phases. The namespace and its pods are always removed
// before it returns.
func Run(ctx context.Context, env Env, mode, kind string, o Options) ([]Phase, error) {
	ns := "bench-" + strings.ToLower(strings.NewReplacer(" ", "-", "InPlaceIfPossible", "inplace").Replace(kind)) +
		"-" + strings.Fields(mode)[0]
	logger := klog.FromContext(ctx).WithValues("mode", mode, "workload", kind, "namespace", ns)
	ctx = klog.NewContext(ctx, logger)
	if err := createNamespace(ctx, env.Kube, ns); err != nil {
		return nil, err
	}
	wl := newWorkload(kind, ns, env.Kube, env.Kruise)
	defer cleanup(ctx, env.Kube, wl)
	tr, err := startTracker(ctx, env.Kube, ns)
	if err != nil {
		return nil, err
	}
	defer tr.close()

	type step struct {
		name, image string
		act         func(context.Context) error
	}
	first := step{PhaseCreate, defaultImage, wl.create}
	if s, ok := wl.(scalable); ok {
		if err := wl.create(ctx); err != nil {
			return nil, err
		}
		if err := waitDone(ctx, wl, tr, 0, time.Minute); err != nil {
			return nil, fmt.Errorf("the empty workload never settled: %w", err)
		}
		n := int32(o.Pods)
		first = step{PhaseScaleUp, defaultImage, func(ctx context.Context) error { return s.scale(ctx, n) }}
	}
	var phases []Phase
	for _, step := range []step{
		first,
		{PhaseRollout, rolloutImage, func(ctx context.Context) error { return wl.setImage(ctx, rolloutImage) }},
	} {
		p, err := measure(ctx, env, kind, wl, tr, o, step.image, step.act)
		p.Mode, p.Workload, p.Phase = mode, kind, step.name
		phases = append(phases, p)
		if err != nil {
			return phases, fmt.Errorf("%s: %w", step.name, err)
		}
		logger.Info("Phase done", "phase", step.name, "seconds", p.Seconds, "timedOut", p.TimedOut,
			"controllerWritesPerPod", p.ControllerWritesPerPod, "allWritesPerPod", p.AllWritesPerPod,
			"controllerWrites", p.ControllerWrites, "controllerConflicts", p.ControllerConflicts)
		if p.TimedOut {
			break // the rollout of a workload that never scaled up says nothing
		}
	}
	return phases, nil
}

// measure runs one phase: act, then wait until the workload is done.
func measure(ctx context.Context, env Env, kind string, wl workload, tr *tracker, o Options, image string, act func(context.Context) error) (Phase, error) {
	p := Phase{Pods: o.Pods}
	metricBefore, _ := env.KruiseWrites(ctx)
	if _, err := env.Audit.Count(audit.Filter{}); err != nil { // skip what came before
		return p, err
	}
	usage := proc.StartWatch(ctx, env.PIDs)
	tr.begin(image)
	start := time.Now()
	if err := act(ctx); err != nil {
		usage.Stop()
		return p, err
	}
	err := waitDone(ctx, wl, tr, int32(o.Pods), o.PhaseTimeout)
	end := time.Now()
	p.Seconds = round(end.Sub(start).Seconds())
	if err != nil {
		if ctx.Err() != nil {
			usage.Stop()
			return p, ctx.Err()
		}
		p.TimedOut = true
		klog.FromContext(ctx).Info("Phase timed out", "after", o.PhaseTimeout, "error", err)
	}
	time.Sleep(settle) // the writes that finish the phase (a last status update) count
	p.Processes = usage.Stop()
	p.Curve, p.SpecCurve = tr.curve(), tr.specCurve()

	window := audit.Filter{Namespace: wl.namespace(), From: start, To: end.Add(settle)}
	conflicts := window
	conflicts.Code = http.StatusConflict
	both, err := env.Audit.CountEach(window, conflicts)
	if err != nil {
		return p, err
	}
	counts := both[0]
	delete(counts, "bench")
	p.AllWrites = counts
	p.AllWritesPerPod = round(float64(counts.Total()) / float64(o.Pods))
	p.ControllerWrites = map[string]int{}
	controllers := controllerClients(kind)
	for _, c := range controllers {
		for k, v := range counts[c] {
			if strings.HasSuffix(k, " events") {
				p.ControllerEvents += v
				continue
			}
			p.ControllerWrites[k] += v
		}
	}
	total := 0
	for _, v := range p.ControllerWrites {
		total += v
	}
	p.ControllerWritesPerPod = round(float64(total) / float64(o.Pods))
	p.ControllerConflicts = map[string]int{}
	for _, c := range controllers {
		for k, v := range both[1][c] {
			p.ControllerConflicts[k] += v
		}
	}
	if after, err := env.KruiseWrites(ctx); err == nil {
		p.KruiseControllerMetric = map[string]float64{}
		for k, v := range after {
			if d := v - metricBefore[k]; d != 0 {
				p.KruiseControllerMetric[k] = d
			}
		}
	}
	return p, nil
}

// waitDone polls until the workload's status and the tracked pods agree that n pods
// run the phase's image, all Ready, and no other pod is left.
func waitDone(ctx context.Context, wl workload, tr *tracker, n int32, timeout time.Duration) error {
	logger := klog.FromContext(ctx)
	last := time.Now()
	desc := ""
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		ok, d, err := wl.done(ctx, n)
		if err != nil {
			logger.V(2).Info("Reading the workload", "error", err)
			return false, nil
		}
		desc = d
		_, live, current := tr.state()
		if time.Since(last) > 15*time.Second {
			logger.Info("Waiting", "status", d, "livePods", live, "podsAtTarget", current)
			last = time.Now()
		}
		return ok && live == int(n) && current == int(n), nil
	})
	if err != nil {
		return fmt.Errorf("not done after %s (%s): %w", timeout, desc, err)
	}
	return nil
}

func createNamespace(ctx context.Context, kube kubernetes.Interface, ns string) error {
	_, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating namespace %s: %w", ns, err)
	}
	// Pods are refused until the namespace's default ServiceAccount exists; refused
	// creates would count as writes that say nothing about the controllers.
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := kube.CoreV1().ServiceAccounts(ns).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for the default ServiceAccount of %s: %w", ns, err)
	}
	return nil
}

// removable is what cleanup needs of a workload: how to delete what owns its pods, and
// its namespace.
type removable interface {
	delete(ctx context.Context) error
	namespace() string
}

// cleanup removes the namespace with our own unthrottled client: leaving 1000 pods to
// the garbage collector (20 QPS) would cost a minute and load the next scenario.
func cleanup(ctx context.Context, kube kubernetes.Interface, wl removable) {
	logger := klog.FromContext(ctx)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Minute)
	defer cancel()
	ns := wl.namespace()
	if err := wl.delete(ctx); err != nil && !apierrors.IsNotFound(err) {
		logger.Error(err, "Deleting the workload")
	}
	if err := kube.CoreV1().Pods(ns).DeleteCollection(ctx, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}, metav1.ListOptions{}); err != nil {
		logger.Error(err, "Deleting the pods")
	}
	if err := DeleteNamespace(ctx, kube, ns, time.Second); err != nil {
		logger.Error(err, "Namespace not gone", "namespace", ns)
	}
}

func round(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }
