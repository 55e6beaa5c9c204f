// Package options holds kruise-apiserver's command-line options and turns them into
// a server Config.
package options

import (
	"context"
	"fmt"
	"net"
	"strings"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/runtime"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/endpoints/openapi"
	genericapiserver "k8s.io/apiserver/pkg/server"
	genericoptions "k8s.io/apiserver/pkg/server/options"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	netutils "k8s.io/utils/net"

	kruiseadmission "github.com/kruise-native/kruise-native/pkg/admission"
	admissioninitializer "github.com/kruise-native/kruise-native/pkg/admission/initializer"
	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
	"github.com/kruise-native/kruise-native/pkg/apiserver"
	"github.com/kruise-native/kruise-native/pkg/apiserver/authzflight"
	"github.com/kruise-native/kruise-native/pkg/apiserver/etcd"
	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
	"github.com/kruise-native/kruise-native/pkg/features"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
	generatedopenapi "github.com/kruise-native/kruise-native/pkg/generated/openapi"
)

// The Kruise gates join the generic server's gate, which --feature-gates sets (before
// any flag set closes it): kruise-apiserver accepts every OpenKruise gate name.
func init() {
	utilruntime.Must(features.AddTo(utilfeature.DefaultMutableFeatureGate))
}

// etcdPathPrefix is where the Kruise API lives in etcd.
const etcdPathPrefix = "/registry/kruise.io"

// Options are kruise-apiserver's flags.
type Options struct {
	// ServerRun holds the generic server's run flags (timeouts, in-flight limits,
	// shutdown behaviour, --feature-gates).
	ServerRun    *genericoptions.ServerRunOptions
	Recommended  *genericoptions.RecommendedOptions
	EmbeddedEtcd etcd.Options
	// AlternateDNS are extra names for a self-signed serving certificate.
	AlternateDNS []string
	// PodWebhookReadinessGate makes the pod webhook give pods of Kruise workloads the
	// KruisePodReady readiness gate.
	PodWebhookReadinessGate bool
	// PodWebhookCallScope keeps the Pod webhook's registrations narrowed to the
	// requests a handler may act on (podwebhook.CallScopeKeeper).
	PodWebhookCallScope bool
	// PodWebhookRegistration is how kruise-apiserver registers its webhooks.
	PodWebhookRegistration *PodWebhookRegistrationOptions

	embedded bool
	// etcdTLSFlagsWithEmbedded records --etcd-{cafile,certfile,keyfile} given without
	// --etcd-servers, before Complete replaces them with the embedded member's.
	etcdTLSFlagsWithEmbedded bool
}

// NewOptions returns the defaults: embedded etcd, objects stored as protobuf in the
// newest version that has their kind.
func NewOptions() *Options {
	codec, versioner, err := scheme.NewStorageCodec()
	if err != nil {
		// The scheme is built into the binary: a missing protobuf serializer is a build bug.
		panic(err)
	}
	o := &Options{
		ServerRun:              genericoptions.NewServerRunOptions(),
		Recommended:            genericoptions.NewRecommendedOptions(etcdPathPrefix, codec),
		EmbeddedEtcd:           etcd.Options{ClientPort: 2479, PeerPort: 2480},
		PodWebhookCallScope:    true,
		PodWebhookRegistration: NewPodWebhookRegistrationOptions(),
	}
	o.Recommended.Etcd.StorageConfig.EncodeVersioner = versioner
	// HTTP/1.1 unless --disable-http2-serving=false. kube-apiserver calls a
	// Service-referenced webhook over HTTP/1.1 whatever we offer, and a webhook at a
	// loopback URL (make up) over one HTTP/2 connection, which failed open under
	// pod-create load; its aggregator, over HTTP/2, would multiplex every proxied request
	// to a replica it happened to dial instead of spreading them over the Service's
	// endpoints, the reason kube-apiserver keeps webhooks on HTTP/1.1
	// (kubernetes/kubernetes#75791). test/bench/results/2026-11-26-webhook.md has the
	// figures. With HTTP/2 on, --http2-max-streams-per-connection is 1000.
	o.Recommended.SecureServing.DisableHTTP2Serving = true
	// Close long-running requests (watches) two seconds into a shutdown instead of
	// waiting out the request timeout: clients re-list and re-watch through the
	// aggregator, and a restart takes seconds rather than a minute.
	o.ServerRun.ShutdownSendRetryAfter = true
	// Only informational with this codec (it always writes protobuf), but keeps
	// --storage-media-type's help honest.
	o.Recommended.Etcd.DefaultStorageMediaType = runtime.ContentTypeProtobuf
	// The pod webhook path is authorized like any other (no always-allow path): its
	// patches carry SidecarSet contents (env values, images), so only kube-apiserver
	// may call it. kube-apiserver presents a client certificate to webhooks when its
	// --admission-control-config-file says so, and RBAC grants that user `post` on the
	// path (artifacts/deploy/rbac/pod-webhook-caller.yaml, artifacts/deploy/README.md).
	kruiseadmission.Register(o.Recommended.Admission.Plugins)
	o.Recommended.Admission.RecommendedPluginOrder = append(o.Recommended.Admission.RecommendedPluginOrder,
		kruiseadmission.PluginOrder...)
	return o
}

// AddFlags registers every flag.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	o.ServerRun.AddUniversalFlags(fs)
	o.Recommended.AddFlags(fs)
	if f := fs.Lookup("etcd-servers"); f != nil {
		f.Usage += " Without it kruise-apiserver runs an embedded etcd (--embedded-etcd-*). An external etcd must " +
			"serve https:// with client certificate authentication (etcd --client-cert-auth --trusted-ca-file), and " +
			"kruise-apiserver must present --etcd-certfile/--etcd-keyfile and verify etcd with --etcd-cafile: anyone " +
			"who reaches an unauthenticated etcd bypasses all authorization and admission."
	}
	if f := fs.Lookup("disable-http2-serving"); f != nil {
		f.Usage = "If true (the default), serve HTTP/1.1 only: kube-apiserver calls a Service-referenced webhook over " +
			"HTTP/1.1 anyway, and its aggregator then spreads proxied requests over the Service's endpoints. " +
			"false serves HTTP/2 with --http2-max-streams-per-connection streams per connection."
	}
	fs.StringVar(&o.EmbeddedEtcd.DataDir, "embedded-etcd-data-dir", o.EmbeddedEtcd.DataDir,
		"Directory of the embedded etcd member, used when --etcd-servers is not set.")
	fs.IntVar(&o.EmbeddedEtcd.ClientPort, "embedded-etcd-client-port", o.EmbeddedEtcd.ClientPort,
		"Port on 127.0.0.1 where the embedded etcd serves clients, over TLS with client certificates only. "+
			"The certificates are generated in <embedded-etcd-data-dir>/pki on first start and reused.")
	fs.IntVar(&o.EmbeddedEtcd.PeerPort, "embedded-etcd-peer-port", o.EmbeddedEtcd.PeerPort,
		"Port on 127.0.0.1 for the embedded etcd's peer traffic.")
	fs.BoolVar(&o.EmbeddedEtcd.UnsafeNoFsync, "embedded-etcd-unsafe-no-fsync", o.EmbeddedEtcd.UnsafeNoFsync,
		"Do not fsync the embedded etcd's WAL and backend. A crash of the machine loses acknowledged writes: "+
			"only for disposable development and benchmark stacks.")
	fs.BoolVar(&o.PodWebhookReadinessGate, "pod-webhook-readiness-gate", o.PodWebhookReadinessGate,
		"Give new pods of CloneSets and Advanced StatefulSets the KruisePodReady readiness gate, so lifecycle "+
			"hooks added later can mark them not ready. Costs their controller one pod status write per new pod. "+
			"Needs the KruisePodReadinessGate feature gate (on by default).")
	fs.BoolVar(&o.PodWebhookCallScope, "pod-webhook-call-scope", o.PodWebhookCallScope,
		"Keep the match conditions of the Pod webhook's registrations ("+podwebhook.ConfigurationName+") to the "+
			"requests a handler may act on: the pod creates a SidecarSet, WorkloadSpread, launch priority or readiness "+
			"gate may change (mutating), and the pod updates, deletes and evictions in namespaces with a "+
			"PodUnavailableBudget or WorkloadSpread (validating), so kube-apiserver calls the webhook for those only. "+
			"Needs patch on both configurations (artifacts/deploy/rbac/apiserver.yaml); without it the webhook is "+
			"called for every such request. false takes out the conditions an earlier run kept, and every request is sent.")
	o.PodWebhookRegistration.AddFlags(fs)
}

// UsesEmbeddedEtcd is true when no external etcd was given.
func (o *Options) UsesEmbeddedEtcd() bool {
	return len(o.Recommended.Etcd.StorageConfig.Transport.ServerList) == 0
}

// Complete points storage at the embedded member when no external etcd was given.
func (o *Options) Complete() error {
	// Applies --feature-gates and --emulated-version.
	if err := o.ServerRun.ComponentGlobalsRegistry.Set(); err != nil {
		return err
	}
	if err := o.ServerRun.Complete(); err != nil {
		return err
	}
	if o.UsesEmbeddedEtcd() {
		t := &o.Recommended.Etcd.StorageConfig.Transport
		o.etcdTLSFlagsWithEmbedded = t.CertFile != "" || t.KeyFile != "" || t.TrustedCAFile != ""
		pki := o.EmbeddedEtcd.PKI()
		t.ServerList = []string{o.EmbeddedEtcd.ClientURL()}
		t.CertFile, t.KeyFile, t.TrustedCAFile = pki.ClientCertFile(), pki.ClientKeyFile(), pki.CAFile()
		o.embedded = true
	}
	return nil
}

// Validate reports every invalid flag at once.
func (o *Options) Validate() error {
	errs := append(o.ServerRun.Validate(), o.Recommended.Validate()...)
	errs = append(errs, o.PodWebhookRegistration.Validate()...)
	errs = append(errs, validateGates(utilfeature.DefaultFeatureGate, o.PodWebhookReadinessGate)...)
	if o.embedded {
		errs = append(errs, o.EmbeddedEtcd.Validate()...)
		if o.etcdTLSFlagsWithEmbedded {
			errs = append(errs, fmt.Errorf("--etcd-cafile, --etcd-certfile and --etcd-keyfile apply to --etcd-servers only: "+
				"the embedded etcd uses the certificates it generates in <embedded-etcd-data-dir>/pki"))
		}
	}
	return utilerrors.NewAggregate(errs)
}

// Config builds the server configuration. Call it after Complete and Validate.
func (o *Options) Config() (*apiserver.Config, error) {
	if err := o.Recommended.SecureServing.MaybeDefaultWithSelfSignedCerts("localhost", o.AlternateDNS,
		[]net.IP{netutils.ParseIPSloppy("127.0.0.1")}); err != nil {
		return nil, fmt.Errorf("creating self-signed certificates: %w", err)
	}
	cfg := genericapiserver.NewRecommendedConfig(scheme.Codecs)
	namer := openapi.NewDefinitionNamer(scheme.Scheme)
	cfg.OpenAPIConfig = genericapiserver.DefaultOpenAPIConfig(generatedopenapi.GetOpenAPIDefinitions, namer)
	cfg.OpenAPIConfig.Info.Title = "Kruise Native"
	cfg.OpenAPIConfig.Info.Version = "v1beta1"
	cfg.OpenAPIV3Config = genericapiserver.DefaultOpenAPIV3Config(generatedopenapi.GetOpenAPIDefinitions, namer)
	cfg.OpenAPIV3Config.Info.Title = "Kruise Native"
	cfg.OpenAPIV3Config.Info.Version = "v1beta1"
	if err := o.ServerRun.ApplyTo(&cfg.Config); err != nil {
		return nil, fmt.Errorf("applying server run options: %w", err)
	}

	var (
		kruiseInformers kruiseinformers.SharedInformerFactory
		podWebhook      *podwebhook.Server
		callScopes      podwebhook.CallScopes
		registrar       *podwebhook.Registrar
	)
	o.Recommended.ExtraAdmissionInitializers = func(c *genericapiserver.RecommendedConfig) ([]admission.PluginInitializer, error) {
		// Concurrent identical requests (the Pod webhook's calls from kube-apiserver above
		// all) share one delegated SubjectAccessReview when the authorizer's cached
		// decision has expired, instead of each sending its own to the kube-apiserver
		// waiting on them. Wrapped here, after authorization is configured and before
		// the admission plugins are given the authorizer, so that their questions (a
		// ResourceDistribution's target namespaces) share flights too.
		if c.Authorization.Authorizer != nil {
			c.Authorization.Authorizer = authzflight.New(c.Authorization.Authorizer)
		}
		client, err := kruiseclient.NewForConfig(c.LoopbackClientConfig)
		if err != nil {
			return nil, fmt.Errorf("kruise loopback client: %w", err)
		}
		kruiseInformers = kruiseinformers.NewSharedInformerFactory(client, 0)
		// The Pod webhook is built here, before the admission plugins, as the one that
		// widens its scope needs the keeper.
		if podWebhook, callScopes, registrar, err = o.podWebhook(c, kruiseInformers, client); err != nil {
			return nil, err
		}
		var scope admissioninitializer.PodWebhookScope
		if callScopes != nil && o.PodWebhookCallScope {
			scope = callScopes
		}
		return []admission.PluginInitializer{admissioninitializer.New(kruiseInformers, scope)}, nil
	}
	if err := o.Recommended.ApplyTo(cfg); err != nil {
		return nil, fmt.Errorf("applying options: %w", err)
	}
	if err := o.gateOnAuthentication(cfg); err != nil {
		return nil, err
	}
	out := &apiserver.Config{GenericConfig: cfg, PodWebhook: podWebhook}
	if callScopes != nil {
		cfg.AddPostStartHookOrDie("kruise-pod-webhook-call-scope", func(ctx genericapiserver.PostStartHookContext) error {
			callScopes.Run(ctx)
			return nil
		})
	}
	if registrar != nil {
		// Not Ready until registered: an install or a rollout waits for the registration,
		// and a replica that cannot write it says so in /readyz.
		cfg.AddReadyzChecks(registrar)
		cfg.AddPostStartHookOrDie("kruise-pod-webhook-registration", func(ctx genericapiserver.PostStartHookContext) error {
			go registrar.Run(ctx)
			return nil
		})
	}
	cfg.AddPostStartHookOrDie("start-kruise-admission-informers", func(ctx genericapiserver.PostStartHookContext) error {
		if kruiseInformers != nil {
			kruiseInformers.Start(ctx.Done())
		}
		return nil
	})
	return out, nil
}

// podWebhook builds the Pod webhook's server, the keepers of its registrations'
// call scopes (narrowing with --pod-webhook-call-scope) and, with
// --pod-webhook-service or --pod-webhook-url, the Registrar that creates the
// registrations; none without a kube-apiserver to serve.
// It registers informers on both factories (before they start).
func (o *Options) podWebhook(c *genericapiserver.RecommendedConfig, kruiseInformers kruiseinformers.SharedInformerFactory,
	kruiseLoopback kruiseclient.Interface) (*podwebhook.Server, podwebhook.CallScopes, *podwebhook.Registrar, error) {
	if c.SharedInformerFactory == nil || c.ClientConfig == nil {
		return nil, nil, nil, nil
	}
	kubeClient, err := kubernetes.NewForConfig(c.ClientConfig)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("kube client for the pod webhook: %w", err)
	}
	metadataClient, err := metadata.NewForConfig(c.ClientConfig)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("metadata client for the pod webhook: %w", err)
	}
	webhookConfig := podwebhook.ConfigFromInformers(kruiseInformers, c.SharedInformerFactory,
		kubeClient, metadataClient, o.PodWebhookReadinessGate)
	webhookConfig.Budgets = podwebhook.BudgetsFromInformers(kruiseInformers, kruiseLoopback, kubeClient, metadataClient)
	webhookConfig.UnguardedOperations = unguardedOperations(utilfeature.DefaultFeatureGate)
	webhookConfig.Spreads = podwebhook.SpreadsFromInformers(kruiseInformers, kruiseLoopback, kubeClient)
	webhookConfig.PodStates = podwebhook.PodStatesFromInformers(kruiseInformers)
	handlers := podwebhook.Handlers(webhookConfig)
	server, err := podwebhook.NewServer(handlers)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("pod webhook: %w", err)
	}
	// The keepers run either way: turned off, they take out a condition an earlier run
	// left, which nothing would widen any more. Each watches the caches its phase's
	// handlers build their clauses from.
	sidecarSets := kruiseInformers.Apps().V1beta1().SidecarSets().Informer()
	spreads := kruiseInformers.Apps().V1beta1().WorkloadSpreads().Informer()
	budgets := kruiseInformers.Policy().V1beta1().PodUnavailableBudgets().Informer()
	podStates := kruiseInformers.Apps().V1beta1().PersistentPodStates().Informer()
	mutating, err := podwebhook.NewCallScopeKeeper(podwebhook.ConfigurationName, podwebhook.Mutating, o.PodWebhookCallScope,
		kubeClient, c.SharedInformerFactory, handlers, sidecarSets, spreads, podStates)
	if err != nil {
		return nil, nil, nil, err
	}
	validating, err := podwebhook.NewCallScopeKeeper(podwebhook.ConfigurationName, podwebhook.Validating, o.PodWebhookCallScope,
		kubeClient, c.SharedInformerFactory, handlers, budgets, spreads)
	if err != nil {
		return nil, nil, nil, err
	}
	scopes := podwebhook.CallScopes{mutating, validating}
	if !o.PodWebhookRegistration.Enabled() {
		return server, scopes, nil, nil
	}
	opts, err := o.PodWebhookRegistration.WebhookOptions()
	if err != nil {
		return nil, nil, nil, err
	}
	// Registered once the handlers can answer (their caches synced), so the first
	// call kube-apiserver makes, before the keeper has narrowed a new registration,
	// finds a server ready for it.
	var synced []cache.InformerSynced
	for _, h := range handlers {
		if h.Synced != nil {
			synced = append(synced, h.Synced)
		}
	}
	registrar, err := podwebhook.NewRegistrar(handlers, opts, o.PodWebhookRegistration.Owner, kubeClient, synced...)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("pod webhook registration: %w", err)
	}
	return server, scopes, registrar, nil
}

// Run starts the embedded etcd (if used) and serves until ctx ends.
func (o *Options) Run(ctx context.Context) error {
	if !o.embedded {
		warnUnauthenticatedEtcd(ctx, o.Recommended.Etcd.StorageConfig.Transport.ServerList,
			o.Recommended.Etcd.StorageConfig.Transport.CertFile)
	}
	if o.embedded {
		// The member outlives ctx until the server has shut down: it stops after Run's
		// server returns, and Run returns once it has released its data dir.
		etcdCtx, stopEtcd := context.WithCancel(context.WithoutCancel(ctx))
		etcdStopped, err := etcd.Start(etcdCtx, o.EmbeddedEtcd)
		if err != nil {
			// Nothing to wait for: return the cause at once, so that the process exits
			// non-zero and its supervisor starts it again.
			stopEtcd()
			return err
		}
		defer func() {
			stopEtcd()
			<-etcdStopped
		}()
	}
	cfg, err := o.Config()
	if err != nil {
		return err
	}
	server, err := cfg.Complete().New()
	if err != nil {
		return err
	}
	return server.GenericAPIServer.PrepareRun().RunWithContext(ctx)
}

// warnUnauthenticatedEtcd logs an external etcd reached without TLS or without a client
// certificate: such an etcd most likely accepts anyone, and whoever reaches it reads and
// deletes Kruise objects past authorization and admission. Only a warning: the operator
// may protect it otherwise (e.g. a network policy), and refusing would break such set-ups.
func warnUnauthenticatedEtcd(ctx context.Context, servers []string, certFile string) {
	logger := klog.FromContext(ctx)
	for _, s := range servers {
		if !strings.HasPrefix(s, "https://") {
			logger.Info("WARNING: etcd server without TLS; use https:// with --etcd-cafile/--etcd-certfile/--etcd-keyfile", "server", s)
		}
	}
	if certFile == "" {
		logger.Info("WARNING: no --etcd-certfile: unless the etcd cluster requires client certificates, anyone who reaches it can read and write every Kruise object")
	}
}
