package options

import (
	"context"
	"fmt"
	"net/http"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/client-go/kubernetes"

	"github.com/kruise-native/kruise-native/pkg/apiserver/authngate"
)

// The configmap kube-apiserver publishes its client CAs in, for aggregated servers.
const (
	authenticationConfigMapNamespace = metav1.NamespaceSystem
	authenticationConfigMapName      = "extension-apiserver-authentication"
	clientCAKey                      = "client-ca-file"
	requestHeaderCAKey               = "requestheader-client-ca-file"
)

// gateOnAuthentication holds back requests (503, Retry-After) until the CAs read from
// the cluster are trusted; see package authngate. CAs given as files are loaded before
// serving and need no gate.
func (o *Options) gateOnAuthentication(cfg *genericapiserver.RecommendedConfig) error {
	authn := o.Recommended.Authentication
	if authn == nil || authn.SkipInClusterLookup || cfg.ClientConfig == nil || cfg.SecureServing == nil || cfg.SecureServing.ClientCA == nil {
		return nil
	}
	var keys []string
	if authn.ClientCert.ClientCA == "" && authn.ClientCert.CAContentProvider == nil {
		keys = append(keys, clientCAKey)
	}
	if authn.RequestHeader.ClientCAFile == "" {
		keys = append(keys, requestHeaderCAKey)
	}
	if len(keys) == 0 {
		return nil
	}
	client, err := kubernetes.NewForConfig(cfg.ClientConfig)
	if err != nil {
		return fmt.Errorf("kube client for the authentication gate: %w", err)
	}
	clientCA := cfg.SecureServing.ClientCA
	gate := &authngate.Gate{
		Published: func(ctx context.Context) ([]string, error) {
			cm, err := client.CoreV1().ConfigMaps(authenticationConfigMapNamespace).Get(ctx, authenticationConfigMapName, metav1.GetOptions{})
			if err != nil {
				return nil, fmt.Errorf("reading %s/%s: %w", authenticationConfigMapNamespace, authenticationConfigMapName, err)
			}
			var out []string
			for _, k := range keys {
				out = append(out, cm.Data[k])
			}
			return out, nil
		},
		Trusted: clientCA.CurrentCABundleContent,
	}
	next := cfg.BuildHandlerChainFunc
	cfg.BuildHandlerChainFunc = func(h http.Handler, c *genericapiserver.Config) http.Handler {
		return gate.WithGate(next(h, c))
	}
	cfg.AddReadyzChecks(gate)
	return cfg.AddPostStartHook("kruise-authentication-gate", func(ctx genericapiserver.PostStartHookContext) error {
		go gate.Run(ctx)
		return nil
	})
}
