package crdmove

import (
	"errors"
	"fmt"
	"io"
	"time"

	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// Clients reach kube-apiserver (Kube, KubeTyped) and kruise-apiserver directly (Kruise,
// KruiseDiscovery): until the switch, kube-apiserver sends the Kruise groups to the CRDs.
type Clients struct {
	Kube            dynamic.Interface
	KubeTyped       kubernetes.Interface
	Kruise          dynamic.Interface
	KruiseDiscovery discovery.DiscoveryInterface
	// KubeConfig is kube-apiserver's client configuration, for impersonated probes.
	KubeConfig *rest.Config
}

// Options are the flags of migrate-from-crds.
type Options struct {
	// KruiseAPIServer is kruise-apiserver's URL as this machine reaches it (e.g. through
	// `kubectl port-forward`); CABundle verifies it and goes into the APIServices;
	// TLSServerName is the name its certificate is for.
	KruiseAPIServer string
	CABundle        []byte
	TLSServerName   string
	// The Service the APIServices point at.
	ServiceNamespace, ServiceName string
	ServicePort                   int32
	// Groups are the API groups moved.
	Groups []string
	// KeepCRDs stops after the unserve step (the rollback stays possible).
	KeepCRDs bool
	// DrainWait bounds apiextensions-apiserver's teardown of a CRD's storage after its
	// spec changes: twice kube-apiserver's --request-timeout (60 s by default).
	DrainWait time.Duration
	// Timeout bounds each wait (APIServices Available, CRDs gone).
	Timeout time.Duration
	DryRun  bool
	Out     io.Writer
	// Interrupt, when set, is asked after each step (and after each imported object,
	// with the count) whether to stop there as if the process had been killed: no undo.
	Interrupt func(step string, n int) bool
}

// ErrInterrupted is returned when Interrupt stopped the run.
var ErrInterrupted = errors.New("interrupted")

// Validate checks the flags.
func (o *Options) Validate() error {
	if o.KruiseAPIServer == "" {
		return fmt.Errorf("--kruise-apiserver is required: kruise-apiserver's URL as this machine reaches it (e.g. `kubectl port-forward -n kruise-system svc/kruise-apiserver 8443:443` and https://127.0.0.1:8443)")
	}
	if len(o.CABundle) == 0 {
		return fmt.Errorf("--ca-bundle is required: the CA that signed kruise-apiserver's serving certificate (it goes into the APIServices)")
	}
	if o.ServiceName == "" || o.ServiceNamespace == "" || o.ServicePort <= 0 {
		return fmt.Errorf("--service NAMESPACE/NAME and --service-port are required")
	}
	return nil
}

func (o *Options) interrupted(step string, n int) bool {
	return o.Interrupt != nil && o.Interrupt(step, n)
}

// NewClients builds the clients from kube-apiserver's configuration: kruise-apiserver is
// reached at o.KruiseAPIServer with the same credentials (it authenticates them by
// delegation to kube-apiserver), verified with o.CABundle for o.TLSServerName.
func NewClients(kube *rest.Config, o *Options) (*Clients, error) {
	kruise := rest.CopyConfig(kube)
	kruise.Host = o.KruiseAPIServer
	kruise.APIPath = ""
	kruise.TLSClientConfig.CAFile = ""
	kruise.TLSClientConfig.CAData = o.CABundle
	kruise.TLSClientConfig.ServerName = o.TLSServerName
	kruise.TLSClientConfig.Insecure = false
	// the import writes one object after another: no client-side throttling
	kruise.QPS, kruise.Burst = 200, 400
	kube = rest.CopyConfig(kube)
	if kube.QPS == 0 {
		kube.QPS, kube.Burst = 50, 100
	}
	c := &Clients{KubeConfig: kube}
	var err error
	if c.Kube, err = dynamic.NewForConfig(kube); err != nil {
		return nil, fmt.Errorf("kube-apiserver client: %w", err)
	}
	if c.KubeTyped, err = kubernetes.NewForConfig(kube); err != nil {
		return nil, fmt.Errorf("kube-apiserver client: %w", err)
	}
	if c.Kruise, err = dynamic.NewForConfig(kruise); err != nil {
		return nil, fmt.Errorf("kruise-apiserver client: %w", err)
	}
	if c.KruiseDiscovery, err = discovery.NewDiscoveryClientForConfig(kruise); err != nil {
		return nil, fmt.Errorf("kruise-apiserver discovery client: %w", err)
	}
	return c, nil
}
