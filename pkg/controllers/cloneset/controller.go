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
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/controllerref"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/imagepredownload"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	"github.com/kruise-native/kruise-native/pkg/features"
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
	kubeClient   kubernetes.Interface
	kruiseClient kruiseclient.Interface
	recorder     record.EventRecorder
	cloneSets    kruiselisters.CloneSetLister
	pods         *podworkload.Control
	// claims are the PVCs of volumeClaimTemplates, for PVC reuse (see claimPlan).
	claims corelisters.PersistentVolumeClaimLister
	now    func() time.Time
	// preDownload is set when PreDownloadImageForInPlaceUpdate is on.
	preDownload *imagepredownload.Jobs
	// readinessGate is KruisePodReadinessGate: new pods get the KruisePodReady gate
	// their lifecycle hooks need (lifecycle.InjectReadinessGate).
	readinessGate bool
	// partitionRollback is CloneSetPartitionRollback: raising the partition takes
	// updated pods back to the current revision (Limits.PartitionRollback).
	partitionRollback bool
	// recreateOnClaimChange is RecreatePodWhenChangeVCTInCloneSetGate: a pod whose
	// revision was made with other volumeClaimTemplates than the update revision is
	// recreated, with new claims, never updated in place (claimtemplate).
	recreateOnClaimChange bool
	// preparingUpdateAsUpdate is PreparingUpdateAsUpdate: scaling counts pods in
	// PreparingUpdate as updated (Limits.PreparingUpdateAsUpdate).
	preparingUpdateAsUpdate bool
}

// New builds the controller on the shared informers.
func New(ctx context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	csInformer := cc.KruiseInformers.Apps().V1beta1().CloneSets()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	revInformer := cc.KubeInformers.Apps().V1().ControllerRevisions()
	claimInformer := cc.KubeInformers.Core().V1().PersistentVolumeClaims()
	recorder := cc.Recorder(ControllerName)
	c := &Controller{
		kubeClient:   cc.KubeClient,
		kruiseClient: cc.KruiseClient,
		recorder:     recorder,
		cloneSets:    csInformer.Lister(),
		claims:       claimInformer.Lister(),
		now:          time.Now,
	}
	w := podworkload.Wiring{
		Config:    podworkload.Config{Name: ControllerName, Kind: controllerKind, PodOwnerKind: podOwnerKind, Text: eventText{}, InPlace: cc.InPlaceOptions()},
		Workloads: csInformer.Informer(), Pods: podInformer.Informer(), Revisions: revInformer.Informer(),
		Matching: c.matching,
		Synced:   []cache.InformerSynced{claimInformer.Informer().HasSynced},
	}
	c.readinessGate = cc.Enabled(features.KruisePodReadinessGate)
	c.partitionRollback = cc.Enabled(features.CloneSetPartitionRollback)
	c.recreateOnClaimChange = cc.Enabled(features.RecreatePodWhenChangeVCTInCloneSetGate)
	c.preparingUpdateAsUpdate = cc.Enabled(features.PreparingUpdateAsUpdate)
	if cc.Enabled(features.PreDownloadImageForInPlaceUpdate) {
		jobInformer := cc.KruiseInformers.Apps().V1alpha1().ImagePullJobs()
		c.preDownload = &imagepredownload.Jobs{Client: cc.KruiseClient, Lister: jobInformer.Lister()}
		w.Synced = append(w.Synced, jobInformer.Informer().HasSynced)
	}
	base, err := podworkload.NewBase(cc.KubeClient, recorder, api{cc.KruiseClient}, w, c.sync)
	if err != nil {
		return nil, err
	}
	c.Base, c.pods = base, base.Pods
	// A claim appearing, changing or going can free an instance id (or show one is
	// not free): the CloneSet that owns it looks again.
	if _, err := claimInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.onClaim,
		UpdateFunc: func(_, obj interface{}) { c.onClaim(obj) },
		DeleteFunc: c.onClaim,
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// onClaim enqueues the CloneSet that controls a claim.
func (c *Controller) onClaim(obj interface{}) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	claim, ok := obj.(*corev1.PersistentVolumeClaim)
	if !ok {
		return
	}
	if key, ok := controllerref.OwnerKey(claim, podOwnerKind.GroupKind()); ok {
		c.Loop.Add(key)
	}
}

// matching names the CloneSets that may adopt an orphan pod.
func (c *Controller) matching(pod *corev1.Pod) []string {
	sets, err := c.cloneSets.CloneSets(pod.Namespace).List(labels.Everything())
	if err != nil {
		return nil
	}
	return podworkload.MatchingKeys(sets, func(cs *v1beta1.CloneSet) *metav1.LabelSelector { return cs.Spec.Selector }, pod)
}
