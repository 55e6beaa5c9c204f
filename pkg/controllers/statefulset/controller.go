// Package statefulset reconciles Advanced StatefulSets (apps.kruise.io StatefulSet):
// the native StatefulSet's ordinals, identities, claims and ordered or parallel pod
// management, plus OpenKruise's parallel and in-place rollouts, reserved ordinals,
// scale limits, claim retention and lifecycle hooks.
//
// The rollout math is pure (Compute, in plan*.go, tested without a server); the sync
// turns what the cache shows into its input and carries out the resulting plan. It
// works on the v1beta1 objects its informer holds (see podworkload).
package statefulset

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	storagelisters "k8s.io/client-go/listers/storage/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/imagepredownload"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	"github.com/kruise-native/kruise-native/pkg/features"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
)

// ControllerName is the event source and field manager of this controller, as in
// OpenKruise.
const ControllerName = "statefulset-controller"

// controllerKind is the owner of pods, claims and revisions: OpenKruise's Advanced
// StatefulSet writes apps.kruise.io/v1beta1 into owner references.
var controllerKind = v1beta1.SchemeGroupVersion.WithKind("StatefulSet")

// Controller reconciles Advanced StatefulSets.
type Controller struct {
	*podworkload.Base[*v1beta1.StatefulSet, v1beta1.StatefulSetStatus]
	kubeClient   kubernetes.Interface
	kruiseClient kruiseclient.Interface
	recorder     record.EventRecorder

	sets      kruiselisters.StatefulSetLister
	podLister corelisters.PodLister
	claims    corelisters.PersistentVolumeClaimLister
	// classes say which claims may grow (volumeClaimUpdateStrategy OnPodRollingUpdate).
	classes storagelisters.StorageClassLister
	pods    *podworkload.Control
	now     func() time.Time
	// preDownload is set when PreDownloadImageForInPlaceUpdate is on.
	preDownload *imagepredownload.Jobs
	// readinessGate is KruisePodReadinessGate: new pods get the KruisePodReady gate
	// their lifecycle hooks need (lifecycle.InjectReadinessGate).
	readinessGate bool
	// preparingUpdateAsUpdate is PreparingUpdateAsUpdate (Params.PreparingUpdateAsUpdate).
	preparingUpdateAsUpdate bool
}

// New builds the controller on the shared informers.
func New(ctx context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	setInformer := cc.KruiseInformers.Apps().V1beta1().StatefulSets()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	revInformer := cc.KubeInformers.Apps().V1().ControllerRevisions()
	claimInformer := cc.KubeInformers.Core().V1().PersistentVolumeClaims()
	classInformer := cc.KubeInformers.Storage().V1().StorageClasses()
	recorder := cc.Recorder(ControllerName)
	c := &Controller{
		kubeClient:   cc.KubeClient,
		kruiseClient: cc.KruiseClient,
		recorder:     recorder,
		sets:         setInformer.Lister(),
		podLister:    podInformer.Lister(),
		claims:       claimInformer.Lister(),
		classes:      classInformer.Lister(),
		now:          time.Now,
	}
	w := podworkload.Wiring{
		Config:    podworkload.Config{Name: ControllerName, Kind: controllerKind, Text: eventText{}, InPlace: cc.InPlaceOptions()},
		Workloads: setInformer.Informer(), Pods: podInformer.Informer(), Revisions: revInformer.Informer(),
		Synced:   []cache.InformerSynced{claimInformer.Informer().HasSynced, classInformer.Informer().HasSynced},
		Matching: c.matching,
	}
	c.readinessGate = cc.Enabled(features.KruisePodReadinessGate)
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
	if _, err := claimInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{UpdateFunc: c.claimHandler()}); err != nil {
		return nil, err
	}
	return c, nil
}

// matching names the sets that may adopt an orphan pod: its labels match their
// selector and its name carries one of their ordinals.
func (c *Controller) matching(pod *corev1.Pod) []string {
	sets, err := c.sets.StatefulSets(pod.Namespace).List(labels.Everything())
	if err != nil {
		return nil
	}
	var members []*v1beta1.StatefulSet
	for _, s := range sets {
		if OrdinalOf(s.Name, pod.Name) >= 0 {
			members = append(members, s)
		}
	}
	return podworkload.MatchingKeys(members, func(s *v1beta1.StatefulSet) *metav1.LabelSelector { return s.Spec.Selector }, pod)
}

// isNotFound treats a vanished object as done, not as a failure.
func isNotFound(err error) bool { return err != nil && apierrors.IsNotFound(err) }

func wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}
