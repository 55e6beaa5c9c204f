// Package manager runs kruise-controller: clients, shared informers, leader election,
// health and metrics endpoints, and every workload controller.
package manager

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"
	componentbaseconfig "k8s.io/component-base/config"
	"k8s.io/component-base/config/options"
	"k8s.io/component-base/featuregate"

	"github.com/kruise-native/kruise-native/pkg/features"
)

// Options are kruise-controller's flags.
type Options struct {
	Kubeconfig string
	// QPS and Burst bound every request the controllers make (kube and Kruise API);
	// DESIGN's performance model: rollout time ≈ writes ÷ QPS.
	QPS   float32
	Burst int
	// Workers is the number of concurrent syncs per controller.
	Workers int
	// BindAddress serves /healthz, /readyz and /metrics.
	BindAddress string
	// EnableProfiling adds /debug/pprof to the BindAddress server (off by default: the
	// endpoint is unauthenticated, like the metrics).
	EnableProfiling bool
	LeaderElection  componentbaseconfig.LeaderElectionConfiguration
	FeatureGate     featuregate.MutableFeatureGate
}

// NewOptions returns the defaults: QPS 20 / burst 30 like kube-controller-manager,
// leader election on with the 15s/10s/2s Lease timings.
func NewOptions() *Options {
	return &Options{
		QPS:         20,
		Burst:       30,
		Workers:     5,
		BindAddress: "127.0.0.1:10270",
		LeaderElection: componentbaseconfig.LeaderElectionConfiguration{
			LeaderElect:       true,
			LeaseDuration:     metaDuration(15 * time.Second),
			RenewDeadline:     metaDuration(10 * time.Second),
			RetryPeriod:       metaDuration(2 * time.Second),
			ResourceLock:      "leases",
			ResourceName:      "kruise-controller",
			ResourceNamespace: "kruise-system",
		},
		FeatureGate: features.NewGate(),
	}
}

// AddFlags registers every flag.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Kubeconfig, "kubeconfig", o.Kubeconfig, "Path to a kubeconfig; empty means in-cluster.")
	fs.Float32Var(&o.QPS, "kube-api-qps", o.QPS, "Queries per second to the API servers, shared by all controllers.")
	fs.IntVar(&o.Burst, "kube-api-burst", o.Burst, "Burst above --kube-api-qps.")
	fs.IntVar(&o.Workers, "workers", o.Workers, "Concurrent syncs per controller.")
	fs.StringVar(&o.BindAddress, "bind-address", o.BindAddress, "host:port serving /healthz, /readyz and /metrics.")
	fs.BoolVar(&o.EnableProfiling, "enable-profiling", o.EnableProfiling, "Serve Go's pprof profiles under /debug/pprof on --bind-address (unauthenticated).")
	options.BindLeaderElectionFlags(&o.LeaderElection, fs)
	o.FeatureGate.AddFlag(fs)
}

// Validate reports every invalid flag.
func (o *Options) Validate() error {
	switch {
	case o.QPS <= 0:
		return fmt.Errorf("--kube-api-qps must be positive, got %v", o.QPS)
	case o.Burst < 1:
		return fmt.Errorf("--kube-api-burst must be at least 1, got %d", o.Burst)
	case o.Workers < 1:
		return fmt.Errorf("--workers must be at least 1, got %d", o.Workers)
	}
	if err := features.Validate(o.FeatureGate); err != nil {
		return fmt.Errorf("--feature-gates: %w", err)
	}
	return nil
}
