package daemon

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"  // client-go request metrics
	_ "k8s.io/component-base/metrics/prometheus/workqueue" // workqueue metrics
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/containerrecreate"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/criclient"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/envrestart"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/handler"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagepuller"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagesync"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/metrics"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/podprobe"
)

const (
	// recreateWorkers: requests handled at once (a stop may take its grace period).
	recreateWorkers = 4
	// envWorkers: pods handled at once for env-from-metadata restarts.
	envWorkers = 2
	// runtimeWaitLog is how often the daemon says it still waits for the runtime.
	runtimeWaitLog = 10 * time.Second
)

// Run runs the daemon, acting through the container runtime at the CRI endpoint, until
// ctx ends. It returns an error when it cannot start or a part of it stops on its own.
// The runtime may start after the daemon: Run waits for it to answer.
func Run(ctx context.Context, o *Options, endpoint string) error {
	logger := klog.FromContext(ctx).WithValues("node", o.NodeName)
	ctx = klog.NewContext(ctx, logger)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	metrics.Register()

	cfg, err := o.ClientConfig()
	if err != nil {
		return err
	}
	recorder, stopEvents, err := newRecorder(cfg, o.NodeName)
	if err != nil {
		return err
	}
	defer stopEvents()
	kubeClient, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	kruiseClient, err := kruiseclient.NewForConfig(cfg)
	if err != nil {
		return err
	}

	var wg sync.WaitGroup
	defer wg.Wait()
	fail := func(what string, err error) {
		if err != nil && ctx.Err() == nil {
			cancel(fmt.Errorf("%s: %w", what, err))
		}
	}

	cri, err := criclient.New(endpoint)
	if err != nil {
		return err
	}
	defer func() { _ = cri.Close() }()

	synced := &readiness{}
	srv, addr, err := serveHealth(ctx, o.BindAddress, cri, synced)
	if err != nil {
		return err
	}
	defer func() { _ = srv.Close() }()
	logger.Info("Serving /healthz, /readyz and /metrics", "address", addr)

	if err := waitForRuntime(ctx, cri); err != nil {
		return err
	}

	// Informers see this node's objects only: its NodeImage and NodePodProbe (both
	// named after the node), its active requests, its pods. A daemon never lists a whole cluster.
	imageFactory := kruiseinformers.NewSharedInformerFactoryWithOptions(kruiseClient, 0,
		kruiseinformers.WithTweakListOptions(func(lo *metav1.ListOptions) {
			lo.FieldSelector = fields.OneTermEqualSelector("metadata.name", o.NodeName).String()
		}))
	crrFactory := kruiseinformers.NewSharedInformerFactoryWithOptions(kruiseClient, 0,
		kruiseinformers.WithTweakListOptions(func(lo *metav1.ListOptions) {
			lo.LabelSelector = labels.SelectorFromSet(labels.Set{
				v1alpha1.ContainerRecreateRequestNodeNameKey: o.NodeName,
				v1alpha1.ContainerRecreateRequestActiveKey:   "true",
			}).String()
		}))
	podFactory := kubeinformers.NewSharedInformerFactoryWithOptions(kubeClient, 0,
		kubeinformers.WithTweakListOptions(func(lo *metav1.ListOptions) {
			lo.FieldSelector = fields.OneTermEqualSelector("spec.nodeName", o.NodeName).String()
		}))
	podInformer := podFactory.Core().V1().Pods()

	// Pull secrets come from kruise-apiserver, which serves a daemon the image pull
	// secrets its own NodeImage names: the daemon may not read Secrets.
	secrets := imagesync.NewPullSecretLister(kruiseClient, o.NodeName)
	images, err := imagesync.New(o.NodeName, kruiseClient, imageFactory.Apps().V1beta1().NodeImages(), secrets, cri.Images,
		imagesync.Options{Puller: imagepuller.Options{Workers: o.MaxConcurrentPulls}, Recorder: recorder})
	if err != nil {
		return err
	}
	recreate, err := containerrecreate.New(kubeClient, kruiseClient, crrFactory.Apps().V1alpha1().ContainerRecreateRequests(),
		podInformer, &containerrecreate.Executor{Runtime: cri.Runtime}, recorder, nil)
	if err != nil {
		return err
	}
	env, err := envrestart.New(kubeClient, podInformer, cri.Runtime, recorder)
	if err != nil {
		return err
	}
	probes, err := podprobe.New(o.NodeName, kruiseClient, imageFactory.Apps().V1alpha1().NodePodProbes(), podInformer,
		&handler.Runner{Runtime: cri.Runtime})
	if err != nil {
		return err
	}
	synced.set(images.HasSynced, recreate.HasSynced, env.HasSynced, probes.HasSynced)

	imageFactory.Start(ctx.Done())
	crrFactory.Start(ctx.Done())
	podFactory.Start(ctx.Done())
	defer imageFactory.Shutdown()
	defer crrFactory.Shutdown()
	defer podFactory.Shutdown()

	for _, part := range []struct {
		name string
		run  func(context.Context) error
	}{
		{"image sync", images.Run},
		{"container recreation", func(ctx context.Context) error { return recreate.Run(ctx, recreateWorkers) }},
		{"env-from-metadata restarts", func(ctx context.Context) error { return env.Run(ctx, envWorkers) }},
		{"pod probes", probes.Run},
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := part.run(ctx)
			if err == nil && ctx.Err() == nil {
				err = errors.New("stopped")
			}
			fail(part.name, err)
		}()
	}
	logger.Info("Node daemon started", "runtime", endpoint)
	<-ctx.Done()
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	logger.Info("Node daemon stopping")
	return nil
}

// waitForRuntime waits until the runtime answers Version: at boot the daemon may start
// before the runtime is up.
func waitForRuntime(ctx context.Context, cri *criclient.Client) error {
	logger := klog.FromContext(ctx)
	lastLog := time.Time{}
	for {
		v, err := cri.Version(ctx, 5*time.Second)
		if err == nil {
			logger.Info("Connected to the container runtime", "endpoint", cri.Endpoint,
				"runtime", v.GetRuntimeName(), "version", v.GetRuntimeVersion(), "criVersion", v.GetRuntimeApiVersion())
			return nil
		}
		if time.Since(lastLog) >= runtimeWaitLog {
			logger.Info("Waiting for the container runtime", "endpoint", cri.Endpoint, "err", err)
			lastLog = time.Now()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("no container runtime at %s: %w", cri.Endpoint, context.Cause(ctx))
		case <-time.After(500 * time.Millisecond):
		}
	}
}
