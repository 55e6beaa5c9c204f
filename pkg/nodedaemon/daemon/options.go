// Package daemon runs kruise-node-daemon: clients, informers scoped to its node, the
// CRI connection (or an in-process fake runtime), image sync, container recreation,
// env-from-metadata restarts, and the health and metrics endpoints.
package daemon

import (
	"fmt"
	"net"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/component-base/featuregate"

	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagepuller"
)

// NodeNameEnv is the environment variable the node name comes from (a DaemonSet sets
// it from spec.nodeName through the downward API).
const NodeNameEnv = "NODE_NAME"

// DefaultRuntimeEndpoint is containerd's socket.
const DefaultRuntimeEndpoint = "unix:///run/containerd/containerd.sock"

// Options are kruise-node-daemon's flags, plus the node name.
type Options struct {
	NodeName   string
	Kubeconfig string
	// QPS and Burst bound the daemon's API requests (events have their own budget).
	QPS   float32
	Burst int
	// RuntimeEndpoint is the CRI v1 gRPC endpoint.
	RuntimeEndpoint string
	// FakeRuntimeSocket, for development and tests: serve a fake runtime and kubelet
	// simulator for this node on this unix socket, in process, and use it.
	FakeRuntimeSocket string
	// BindAddress serves /healthz, /readyz and /metrics.
	BindAddress string
	// MaxConcurrentPulls bounds the pulls in flight.
	MaxConcurrentPulls int
	FeatureGate        featuregate.MutableFeatureGate
}

// NewOptions returns the defaults: QPS 5 / burst 10 (a daemon on every node: their sum
// is what the API servers see), containerd's socket, OpenKruise daemon's health port.
func NewOptions() *Options {
	return &Options{
		QPS:                5,
		Burst:              10,
		RuntimeEndpoint:    DefaultRuntimeEndpoint,
		BindAddress:        ":10221",
		MaxConcurrentPulls: imagepuller.DefaultWorkers,
		FeatureGate:        featuregate.NewFeatureGate(),
	}
}

// AddFlags registers every flag.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Kubeconfig, "kubeconfig", o.Kubeconfig, "Path to a kubeconfig; empty means in-cluster.")
	fs.Float32Var(&o.QPS, "kube-api-qps", o.QPS, "Queries per second to the API servers.")
	fs.IntVar(&o.Burst, "kube-api-burst", o.Burst, "Burst above --kube-api-qps.")
	fs.StringVar(&o.RuntimeEndpoint, "runtime-endpoint", o.RuntimeEndpoint, "CRI v1 endpoint of the container runtime (a unix socket).")
	fs.StringVar(&o.FakeRuntimeSocket, "fake-runtime-socket", o.FakeRuntimeSocket,
		"Development and tests only: serve an in-memory fake runtime and kubelet simulator for this node on this unix socket "+
			"and use it instead of --runtime-endpoint (images under fail.invalid/, notfound.invalid/, slow.invalid/ and "+
			"flaky.invalid/ fail or take long to pull; see pkg/nodedaemon/devruntime).")
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
	case o.FakeRuntimeSocket == "" && o.RuntimeEndpoint == "":
		return fmt.Errorf("--runtime-endpoint must not be empty")
	}
	if _, _, err := net.SplitHostPort(o.BindAddress); err != nil {
		return fmt.Errorf("--bind-address %q: %w", o.BindAddress, err)
	}
	return nil
}

// Endpoint is the CRI endpoint the daemon uses.
func (o *Options) Endpoint() string {
	if o.FakeRuntimeSocket != "" {
		return "unix://" + o.FakeRuntimeSocket
	}
	return o.RuntimeEndpoint
}
