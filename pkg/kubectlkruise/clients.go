package kubectlkruise

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/resource"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"

	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// Clients are what the command logic talks to; unit tests fill them with fakes.
type Clients struct {
	Dynamic dynamic.Interface
	Kube    kubernetes.Interface
	Kruise  kruiseclient.Interface
	// REST is an untyped client of one group version, for subresources the dynamic
	// client cannot post to (rollback takes a body that is not the workload).
	REST func(gv schema.GroupVersion) (resource.RESTClient, error)
}

// clientsFrom builds the clients from kubectl's factory (so --kubeconfig, --context,
// --server and the rest apply to every request).
func clientsFrom(f cmdutil.Factory) (*Clients, error) {
	dyn, err := f.DynamicClient()
	if err != nil {
		return nil, fmt.Errorf("dynamic client: %w", err)
	}
	kube, err := f.KubernetesClientSet()
	if err != nil {
		return nil, fmt.Errorf("kubernetes client: %w", err)
	}
	cfg, err := f.ToRESTConfig()
	if err != nil {
		return nil, fmt.Errorf("client config: %w", err)
	}
	kc, err := kruiseclient.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("kruise client: %w", err)
	}
	rest := func(gv schema.GroupVersion) (resource.RESTClient, error) {
		return f.UnstructuredClientForMapping(&meta.RESTMapping{GroupVersionKind: gv.WithKind(""), Resource: gv.WithResource("")})
	}
	return &Clients{Dynamic: dyn, Kube: kube, Kruise: kc, REST: rest}, nil
}
