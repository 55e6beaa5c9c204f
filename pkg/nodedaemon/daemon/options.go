// Package daemon runs kruise-node-daemon: clients, informers scoped to its node, the
// CRI connection to the runtime endpoint it is given, image sync, container recreation,
// env-from-metadata restarts, and the health and metrics endpoints. The runtime is the
// caller's choice: kruise-node-daemon names a real one (RuntimeOptions);
// kruise-node-daemon-dev serves a fake one (internal/devruntime) and passes its
// socket, so no test code is linked into the production binary.
package daemon

import (
	"fmt"
	"net"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/component-base/featuregate"

	"github.com/kruise-native/kruise-native/pkg/features"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagepuller"
)

// NodeNameEnv is the environment variable the node name comes from (a DaemonSet sets
// it from spec.nodeName through the downward API).
const NodeNameEnv = "NODE_NAME"

// DefaultRuntimeEndpoint is containerd's socket.
const DefaultRuntimeEndpoint = "unix:///run/containerd/containerd.sock"

// Options are the node daemon's flags, plus the node name; the container runtime is
// not among them (see the package comment).
type Options struct {
	NodeName   string
	Kubeconfig string
	// QPS and Burst bound the daemon's API requests (events have their own budget).
	QPS   float32
	Burst int
	// BindAddress serves /healthz, /readyz and /metrics.
	BindAddress string
	// MaxConcurrentPulls bounds the pulls in flight.
	MaxConcurrentPulls int
	// FeatureGate is --feature-gates: every Kruise gate (pkg/features), checked at start.
	FeatureGate featuregate.MutableFeatureGate
}

// NewOptions returns the defaults: QPS 5 / burst 10 (a daemon on every node: their sum
// is what the API servers see), OpenKruise daemon's health port.
func NewOptions() *Options {
	return &Options{
		QPS:                5,
		Burst:              10,
		BindAddress:        ":10221",
		MaxConcurrentPulls: imagepuller.DefaultWorkers,
		FeatureGate:        features.NewGate(),
	}
}

// AddFlags registers every flag.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Kubeconfig, "kubeconfig", o.Kubeconfig, "Path to a kubeconfig; empty means in-cluster.")
	fs.Float32Var(&o.QPS, "kube-api-qps", o.QPS, "Queries per second to the API servers.")
	fs.IntVar(&o.Burst, "kube-api-burst", o.Burst, "Burst above --kube-api-qps.")
	fs.StringVar(&o.BindAddress, "bind-address", o.BindAddress, "host:port serving /healthz, /readyz and /metrics (port 0: any free port, logged).")
	fs.IntVar(&o.MaxConcurrentPulls, "max-concurrent-pulls", o.MaxConcurrentPulls, "Image pulls in flight at once.")
	o.FeatureGate.AddFlag(fs)
}

// Validate reports the first invalid option.
func (o *Options) Validate() error {
	switch {
	case o.NodeName == "":
		return fmt.Errorf("no node name: set the environment variable %s (in a DaemonSet: valueFrom.fieldRef.fieldPath spec.nodeName)", NodeNameEnv)
	case len(validation.IsDNS1123Subdomain(o.NodeName)) > 0:
		return fmt.Errorf("%s=%q is not a valid node name: %v", NodeNameEnv, o.NodeName, validation.IsDNS1123Subdomain(o.NodeName))
	case o.QPS <= 0:
		return fmt.Errorf("--kube-api-qps must be positive, got %v", o.QPS)
	case o.Burst < 1:
		return fmt.Errorf("--kube-api-burst must be at least 1, got %d", o.Burst)
	case o.MaxConcurrentPulls < 1:
		return fmt.Errorf("--max-concurrent-pulls must be at least 1, got %d", o.MaxConcurrentPulls)
	}
	if _, _, err := net.SplitHostPort(o.BindAddress); err != nil {
		return fmt.Errorf("--bind-address %q: %w", o.BindAddress, err)
	}
	if err := features.Validate(o.FeatureGate); err != nil {
		return fmt.Errorf("--feature-gates: %w", err)
	}
	return nil
}

// ClientConfig is the configuration of the daemon's API clients: the kubeconfig, with
// the daemon's QPS and burst and a user agent naming the node.
func (o *Options) ClientConfig() (*rest.Config, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", o.Kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("loading kubeconfig: %w", err)
	}
	cfg.QPS, cfg.Burst = o.QPS, o.Burst
	return rest.AddUserAgent(cfg, "kruise-node-daemon/"+o.NodeName), nil
}

// RuntimeOptions name the container runtime of a real node (kruise-node-daemon's
// --runtime-endpoint).
type RuntimeOptions struct {
	// Endpoint is the CRI v1 gRPC endpoint.
	Endpoint string
}

// NewRuntimeOptions returns containerd's socket.
func NewRuntimeOptions() *RuntimeOptions {
	return &RuntimeOptions{Endpoint: DefaultRuntimeEndpoint}
}

// AddFlags registers --runtime-endpoint.
func (r *RuntimeOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&r.Endpoint, "runtime-endpoint", r.Endpoint, "CRI v1 endpoint of the container runtime (a unix socket).")
}

// Validate reports an empty endpoint.
func (r *RuntimeOptions) Validate() error {
	if r.Endpoint == "" {
		return fmt.Errorf("--runtime-endpoint must not be empty")
	}
	return nil
}
