// Package apiserver assembles kruise-apiserver: the generic API server from
// k8s.io/apiserver serving apps.kruise.io from its own storage.
package apiserver

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	registrygeneric "k8s.io/apiserver/pkg/registry/generic"
	registryrest "k8s.io/apiserver/pkg/registry/rest"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	clonesetstorage "github.com/kruise-native/kruise-native/pkg/registry/apps/cloneset/storage"
	crrstorage "github.com/kruise-native/kruise-native/pkg/registry/apps/containerrecreaterequest/storage"
	imagelistpulljobstorage "github.com/kruise-native/kruise-native/pkg/registry/apps/imagelistpulljob/storage"
	imagepulljobstorage "github.com/kruise-native/kruise-native/pkg/registry/apps/imagepulljob/storage"
	nodeimagestorage "github.com/kruise-native/kruise-native/pkg/registry/apps/nodeimage/storage"
	sidecarsetstorage "github.com/kruise-native/kruise-native/pkg/registry/apps/sidecarset/storage"
	statefulsetstorage "github.com/kruise-native/kruise-native/pkg/registry/apps/statefulset/storage"
	"github.com/kruise-native/kruise-native/pkg/registry/rollback"
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
	// kubeClientConfig reaches kube-apiserver (for ControllerRevisions); nil without --kubeconfig.
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

	appsGroup, err := c.appsAPIGroup()
	if err != nil {
		return nil, err
	}
	if err := generic.InstallAPIGroup(appsGroup); err != nil {
		return nil, fmt.Errorf("installing %s: %w", apps.GroupName, err)
	}
	if c.podWebhook != nil {
		// Behind the server's authentication and authorization filters; options let
		// kube-apiserver, which calls webhooks anonymously, through on podwebhook.Path
		// (kruise-apiserver's chain has mutating handlers only, so it is the one path).
		for path, h := range c.podWebhook.Paths() {
			generic.Handler.NonGoRestfulMux.Handle(path, h)
		}
	}
	return s, nil
}

func (c CompletedConfig) appsAPIGroup() (*genericapiserver.APIGroupInfo, error) {
	info := genericapiserver.NewDefaultAPIGroupInfo(apps.GroupName, Scheme, metav1.ParameterCodec, Codecs)
	optsGetter := c.generic.RESTOptionsGetter
	revisions, err := revisionLister(c.kubeClientConfig)
	if err != nil {
		return nil, err
	}

	cloneSets, err := clonesetstorage.NewStorage(Scheme, optsGetter, revisions)
	if err != nil {
		return nil, fmt.Errorf("clonesets storage: %w", err)
	}
	statefulSets, err := statefulsetstorage.NewStorage(Scheme, optsGetter, revisions)
	if err != nil {
		return nil, fmt.Errorf("statefulsets storage: %w", err)
	}
	sidecarSets, err := sidecarsetstorage.NewStorage(Scheme, optsGetter)
	if err != nil {
		return nil, fmt.Errorf("sidecarsets storage: %w", err)
	}
	resources := map[string]registryrest.Storage{
		"clonesets":             cloneSets.CloneSet,
		"clonesets/status":      cloneSets.Status,
		"clonesets/scale":       cloneSets.Scale,
		"clonesets/rollback":    cloneSets.Rollback,
		"statefulsets":          statefulSets.StatefulSet,
		"statefulsets/status":   statefulSets.Status,
		"statefulsets/scale":    statefulSets.Scale,
		"statefulsets/rollback": statefulSets.Rollback,
		"sidecarsets":           sidecarSets.SidecarSet,
		"sidecarsets/status":    sidecarSets.Status,
	}
	// Both versions serve the same storage: the hub type is converted on the way out.
	info.VersionedResourcesStorageMap["v1beta1"] = resources
	alpha, err := nodeOperationResources(optsGetter)
	if err != nil {
		return nil, err
	}
	for k, v := range resources {
		alpha[k] = v
	}
	info.VersionedResourcesStorageMap["v1alpha1"] = alpha
	return &info, nil
}

// nodeOperationResources are the kinds OpenKruise serves in v1alpha1 only: image
// pre-pulling and container recreation, carried out by the node daemons.
func nodeOperationResources(optsGetter registrygeneric.RESTOptionsGetter) (map[string]registryrest.Storage, error) {
	nodeImages, err := nodeimagestorage.NewStorage(Scheme, optsGetter)
	if err != nil {
		return nil, fmt.Errorf("nodeimages storage: %w", err)
	}
	pullJobs, err := imagepulljobstorage.NewStorage(Scheme, optsGetter)
	if err != nil {
		return nil, fmt.Errorf("imagepulljobs storage: %w", err)
	}
	listPullJobs, err := imagelistpulljobstorage.NewStorage(Scheme, optsGetter)
	if err != nil {
		return nil, fmt.Errorf("imagelistpulljobs storage: %w", err)
	}
	crrs, err := crrstorage.NewStorage(Scheme, optsGetter)
	if err != nil {
		return nil, fmt.Errorf("containerrecreaterequests storage: %w", err)
	}
	return map[string]registryrest.Storage{
		"nodeimages":                       nodeImages.NodeImage,
		"nodeimages/status":                nodeImages.Status,
		"imagepulljobs":                    pullJobs.ImagePullJob,
		"imagepulljobs/status":             pullJobs.Status,
		"imagelistpulljobs":                listPullJobs.ImageListPullJob,
		"imagelistpulljobs/status":         listPullJobs.Status,
		"containerrecreaterequests":        crrs.ContainerRecreateRequest,
		"containerrecreaterequests/status": crrs.Status,
	}, nil
}

// revisionLister reads workloads' ControllerRevisions from kube-apiserver, where the
// controllers keep them, for the rollback subresource.
func revisionLister(cfg *rest.Config) (rollback.RevisionLister, error) {
	if cfg == nil {
		return func(context.Context, string) ([]appsv1.ControllerRevision, error) {
			return nil, fmt.Errorf("no kube-apiserver client configured (--kubeconfig)")
		}, nil
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("kube client: %w", err)
	}
	return func(ctx context.Context, ns string) ([]appsv1.ControllerRevision, error) {
		list, err := client.AppsV1().ControllerRevisions(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		return list.Items, nil
	}, nil
}
