// Package cloneset reconciles CloneSets: it creates, deletes and updates (in place or
// by recreation) the pods a CloneSet owns directly, and reports their state.
//
// It works on the v1beta1 objects its informer holds (see podworkload: no conversion
// to the hub type); the rollout math is pure (Compute, in plan.go).
package cloneset

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/record"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/imagepredownload"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = "cloneset-controller"

// controllerKind owns the CloneSet's revisions; podOwnerKind is what its pods' and
// claims' owner references carry: v1alpha1, as OpenKruise writes them, so tools that
// follow owner references keep working.
var (
	controllerKind = v1beta1.SchemeGroupVersion.WithKind("CloneSet")
	podOwnerKind   = v1alpha1.SchemeGroupVersion.WithKind("CloneSet")
)

// Controller reconciles CloneSets.
type Controller struct {
	*podworkload.Base[*v1beta1.CloneSet, v1beta1.CloneSetStatus]
	kruiseClient kruiseclient.Interface
	recorder     record.EventRecorder
	cloneSets    kruiselisters.CloneSetLister
	pods         *podworkload.Control
	now          func() time.Time
	// preDownload is set when PreDownloadImageForInPlaceUpdate is on.
	preDownload *imagepredownload.Jobs
}

// New builds the controller on the shared informers.
func New(ctx context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	csInformer := cc.KruiseInformers.Apps().V1beta1().CloneSets()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	revInformer := cc.KubeInformers.Apps().V1().ControllerRevisions()
	recorder := cc.Recorder(ControllerName)
	c := &Controller{
		kruiseClient: cc.KruiseClient,
		recorder:     recorder,
		cloneSets:    csInformer.Lister(),
		now:          time.Now,
	}
	w := podworkload.Wiring{
		Config:    podworkload.Config{Name: ControllerName, Kind: controllerKind, PodOwnerKind: podOwnerKind, Text: eventText{}},
		Workloads: csInformer.Informer(), Pods: podInformer.Informer(), Revisions: revInformer.Informer(),
		Matching: c.matching,
	}
	if cc.Enabled(manager.PreDownloadImageForInPlaceUpdate) {
		jobInformer := cc.KruiseInformers.Apps().V1alpha1().ImagePullJobs()
		c.preDownload = &imagepredownload.Jobs{Client: cc.KruiseClient, Lister: jobInformer.Lister()}
		w.Synced = append(w.Synced, jobInformer.Informer().HasSynced)
	}
	base, err := podworkload.NewBase(cc.KubeClient, recorder, api{cc.KruiseClient}, w, c.sync)
	if err != nil {
		return nil, err
	}
	c.Base, c.pods = base, base.Pods
	return c, nil
}

// matching names the CloneSets that may adopt an orphan pod.
func (c *Controller) matching(pod *corev1.Pod) []string {
	sets, err := c.cloneSets.CloneSets(pod.Namespace).List(labels.Everything())
	if err != nil {
		return nil
	}
	return podworkload.MatchingKeys(sets, func(cs *v1beta1.CloneSet) *metav1.LabelSelector { return cs.Spec.Selector }, pod)
}
