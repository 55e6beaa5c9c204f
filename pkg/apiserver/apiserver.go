// Package apiserver assembles kruise-apiserver: the generic API server from
// k8s.io/apiserver serving every resource pkg/registry/kinds lists from its own storage.
package apiserver

import (
	"fmt"

	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/client-go/rest"

	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
	"github.com/kruise-native/kruise-native/pkg/apiserver/etcderrors"
	"github.com/kruise-native/kruise-native/pkg/apiserver/importmeta"
	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
	"github.com/kruise-native/kruise-native/pkg/apiserver/watchbuffer"
	"github.com/kruise-native/kruise-native/pkg/registry/kinds"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
)

// Config is the complete configuration of kruise-apiserver.
type Config struct {
	GenericConfig *genericapiserver.RecommendedConfig
	// PodWebhook, if set, is served on the same TLS port, each phase that has handlers
	// at its path (podwebhook.MutatePath, podwebhook.ValidatePath): kube-apiserver calls
	// them as the generated webhook configurations say.
	PodWebhook *podwebhook.Server
}

// CompletedConfig is a Config whose defaults have been filled in.
type CompletedConfig struct {
	generic genericapiserver.CompletedConfig
	// kubeClientConfig reaches kube-apiserver (for ControllerRevisions and pull secrets);
	// nil without --kubeconfig.
	kubeClientConfig *rest.Config
	podWebhook       *podwebhook.Server
}

// Server is a running kruise-apiserver.
type Server struct {
	GenericAPIServer *genericapiserver.GenericAPIServer
}

// Complete fills in the fields not set by options.
func (c *Config) Complete() CompletedConfig {
	return CompletedConfig{generic: c.GenericConfig.Complete(), kubeClientConfig: c.GenericConfig.ClientConfig, podWebhook: c.PodWebhook}
}

// New builds the server and installs every API group.
func (c CompletedConfig) New() (*Server, error) {
	generic, err := c.generic.New("kruise-apiserver", genericapiserver.NewEmptyDelegate())
	if err != nil {
		return nil, fmt.Errorf("creating generic API server: %w", err)
	}
	s := &Server{GenericAPIServer: generic}

	groups, err := c.apiGroups()
	if err != nil {
		return nil, err
	}
	for _, g := range groups {
		if err := generic.InstallAPIGroup(g); err != nil {
			return nil, fmt.Errorf("installing %s: %w", g.PrioritizedVersions[0].Group, err)
		}
	}
	if c.podWebhook != nil {
		// Behind the server's authentication and authorization filters like every
		// path: only a caller granted `post` on it (kube-apiserver's webhook client
		// certificate, artifacts/deploy/rbac/pod-webhook-caller.yaml) gets an answer.
		for path, h := range c.podWebhook.Paths() {
			generic.Handler.NonGoRestfulMux.Handle(path, h)
		}
	}
	return s, nil
}

// apiGroups builds every served resource's endpoints (the registry) and groups them
// by API group (groupInfos).
func (c CompletedConfig) apiGroups() ([]*genericapiserver.APIGroupInfo, error) {
	kube, err := newKubeReaders(c.kubeClientConfig)
	if err != nil {
		return nil, err
	}
	deps := resource.Deps{
		Scheme: scheme.Scheme,
		// Watches read their cache eagerly: see watchbuffer for why the aggregator needs it.
		// etcd errors that mean "ask again" (a leader election) are 503/504 with
		// Retry-After, which clients retry, instead of 500.
		// Creates carrying importmeta.Annotation keep their UID, creationTimestamp and
		// generation, for callers allowed the verb "import" (the migration from CRDs).
		RESTOptions: importmeta.OptionsGetter(etcderrors.OptionsGetter(watchbuffer.OptionsGetter(c.generic.RESTOptionsGetter, 0)), c.generic.Authorization.Authorizer),
		Revisions:   kube.revisions,
		Secret:      kube.secret,
	}
	storage, err := resource.Storage(deps, kinds.All()...)
	if err != nil {
		return nil, err
	}
	return groupInfos(scheme.Scheme, scheme.Codecs, storage)
}
