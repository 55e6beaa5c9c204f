package manager

import (
	"context"
	"errors"
	"fmt"
	"k8s.io/component-base/featuregate"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/client-go/dynamic"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/client-go/tools/record"
	"k8s.io/component-base/metrics/legacyregistry"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"  // client-go request metrics
	_ "k8s.io/component-base/metrics/prometheus/workqueue" // workqueue metrics
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podindex"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
)

// Controller is one workload controller.
type Controller interface {
	Name() string
	// HasSynced reports whether the controller's informers have synced.
	HasSynced() bool
	// Run processes its queue with the given number of workers until ctx ends.
	Run(ctx context.Context, workers int)
}

// NewFunc builds a controller from the shared context.
type NewFunc func(ctx context.Context, c *ControllerContext) (Controller, error)

// Run runs the controllers (as the elected leader when leader election is on) until ctx
// ends. It returns an error when a controller cannot start or stops on its own: the
// process then exits non-zero and is restarted, instead of serving /healthz (and, as
// the leader, holding the lease) while reconciling nothing. When the lease is lost the
// process exits at once, non-zero, without waiting for the controllers to stop
// (exitOnLostLease).
func Run(ctx context.Context, o *Options, constructors []NewFunc) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", o.Kubeconfig)
	if err != nil {
		return fmt.Errorf("loading kubeconfig: %w", err)
	}
	cfg.QPS, cfg.Burst = o.QPS, o.Burst
	cfg = rest.AddUserAgent(cfg, "kruise-controller")
	preferProtobuf(cfg)
	recorder, stopEvents, err := newRecorderFactory(cfg)
	if err != nil {
		return err
	}
	defer stopEvents()
	countWrites(cfg) // after the events client was made from cfg: events are not counted
	kubeClient, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	kruiseClient, err := kruiseclient.NewForConfig(cfg)
	if err != nil {
		return err
	}
	dynamicClient, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	metadataClient, err := metadata.NewForConfig(cfg)
	if err != nil {
		return err
	}
	return run(ctx, o, clients{kube: kubeClient, kruise: kruiseClient, dynamic: dynamicClient, metadata: metadataClient,
		recorder: recorder}, constructors, exitOnLostLease)
}

// clients are what the controllers and the leader election talk to the API servers with.
type clients struct {
	kube     kubernetes.Interface
	kruise   kruiseclient.Interface
	dynamic  dynamic.Interface
	metadata metadata.Interface
	recorder func(component string) record.EventRecorder
}

// run serves health and metrics and runs the controllers, as the leader when leader
// election is on; onLost is called when the lease is lost (exitOnLostLease).
func run(ctx context.Context, o *Options, c clients, constructors []NewFunc, onLost func()) error {
	var ready atomic.Bool
	srv, err := serveHealthAndMetrics(ctx, o.BindAddress, o.EnableProfiling, &ready)
	if err != nil {
		return err
	}
	defer func() { _ = srv.Close() }()

	runAll := func(ctx context.Context) error {
		return runControllers(ctx, c, o.Workers, o.FeatureGate, constructors, &ready)
	}
	if !o.LeaderElection.LeaderElect {
		return runAll(ctx)
	}

	hostname, _ := os.Hostname()
	le := o.LeaderElection
	lock, err := resourcelock.New(le.ResourceLock, le.ResourceNamespace, le.ResourceName,
		c.kube.CoreV1(), c.kube.CoordinationV1(),
		resourcelock.ResourceLockConfig{Identity: hostname + "_" + string(uuid.NewUUID())})
	if err != nil {
		return fmt.Errorf("leader election lock: %w", err)
	}
	return runLeading(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: le.LeaseDuration.Duration,
		RenewDeadline: le.RenewDeadline.Duration,
		RetryPeriod:   le.RetryPeriod.Duration,
		Name:          le.ResourceName,
	}, runAll, onLost)
}

// runControllers builds every controller, starts the shared informers and runs the
// controllers until ctx ends. A controller that cannot be built, or that stops while
// ctx lives, is an error: a partial set of controllers never runs.
func runControllers(ctx context.Context, c clients, workers int, gates featuregate.FeatureGate, constructors []NewFunc, ready *atomic.Bool) error {
	kubeClient, kruiseClient := c.kube, c.kruise
	logger := klog.FromContext(ctx)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	kubeInformers := kubeinformers.NewSharedInformerFactoryWithOptions(kubeClient, 0, kubeinformers.WithTransform(cacheTransform()))
	kruiseInformers := kruiseinformers.NewSharedInformerFactoryWithOptions(kruiseClient, 0, kruiseinformers.WithTransform(stripManagedFields))
	if err := podindex.Add(kubeInformers.Core().V1().Pods().Informer()); err != nil {
		return fmt.Errorf("pod index: %w", err)
	}
	cc := &ControllerContext{
		KubeClient: kubeClient, KruiseClient: kruiseClient, Dynamic: c.dynamic, Metadata: c.metadata,
		KubeInformers: kubeInformers, KruiseInformers: kruiseInformers,
		Recorder: c.recorder, Workers: workers, FeatureGate: gates,
	}
	var controllers []Controller
	for i, newController := range constructors {
		c, err := newController(ctx, cc)
		if err != nil {
			return fmt.Errorf("building controller %d of %d: %w", i+1, len(constructors), err)
		}
		controllers = append(controllers, c)
	}
	kubeInformers.Start(ctx.Done())
	kruiseInformers.Start(ctx.Done())
	defer kubeInformers.Shutdown()
	defer kruiseInformers.Shutdown()

	stopped := make(chan string, len(controllers))
	for _, c := range controllers {
		go func() {
			defer func() { stopped <- c.Name() }()
			c.Run(klog.NewContext(ctx, logger.WithValues("controller", c.Name())), workers)
		}()
	}
	go func() {
		for _, c := range controllers {
			for !c.HasSynced() {
				select {
				case <-ctx.Done():
					return
				case <-time.After(100 * time.Millisecond):
				}
			}
		}
		ready.Store(true)
		logger.Info("All controllers synced")
	}()
	var err error
	for range controllers {
		name := <-stopped
		if err == nil && ctx.Err() == nil {
			err = fmt.Errorf("controller %s stopped on its own", name)
			cancel()
		}
	}
	return err
}

// newRecorderFactory records events through their own client: events get their own
// rate limit and never take QPS from pod and status writes.
func newRecorderFactory(cfg *rest.Config) (func(string) record.EventRecorder, func(), error) {
	eventsCfg := rest.CopyConfig(cfg)
	eventsCfg.QPS, eventsCfg.Burst = 10, 20
	client, err := kubernetes.NewForConfig(eventsCfg)
	if err != nil {
		return nil, nil, err
	}
	scheme := eventScheme()
	broadcaster := record.NewBroadcaster(record.WithContext(context.Background()))
	broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: client.CoreV1().Events("")})
	return func(component string) record.EventRecorder {
		return broadcaster.NewRecorder(scheme, corev1.EventSource{Component: component})
	}, broadcaster.Shutdown, nil
}

// serveHealthAndMetrics serves /healthz (the process runs), /readyz (informers synced)
// and /metrics (workqueue and client metrics), and with profiling Go's pprof endpoints.
func serveHealthAndMetrics(ctx context.Context, addr string, profiling bool, ready *atomic.Bool) (*http.Server, error) {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		if !ready.Load() {
			http.Error(w, "informers not synced (or not the leader yet)", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	mux.Handle("/metrics", legacyregistry.Handler())
	if profiling {
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			klog.FromContext(ctx).Error(err, "Health server stopped")
		}
	}()
	return srv, nil
}
