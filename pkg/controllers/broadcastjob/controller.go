// Package broadcastjob reconciles BroadcastJobs (broadcastjobs.apps.kruise.io): one
// job pod per eligible node, decided and pinned as for an Advanced DaemonSet
// (nodeplacement), within parallelism, until every node's pod finished, the active
// deadline, or what failurePolicy makes of a failed pod (FailFast: the job fails;
// Pause: it sets spec.paused; Continue: it goes on), restartLimit counting the
// restarts of restartPolicy OnFailure pods; a finished job is deleted after its TTL.
//
// It works on the v1beta1 objects its informer holds (see podworkload); what to create
// and how the job stands is pure (Compute).
package broadcastjob

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/nodeplacement"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = "broadcastjob-controller"

// controllerKind is the job's kind; podOwnerKind is what its pods' owner references
// carry: v1alpha1, as OpenKruise writes them.
var (
	controllerKind = v1beta1.SchemeGroupVersion.WithKind("BroadcastJob")
	podOwnerKind   = v1alpha1.SchemeGroupVersion.WithKind("BroadcastJob")
)

// Controller reconciles BroadcastJobs.
type Controller struct {
	*podworkload.Base[*v1beta1.BroadcastJob, v1beta1.BroadcastJobStatus]
	kruiseClient kruiseclient.Interface
	recorder     record.EventRecorder
	jobs         kruiselisters.BroadcastJobLister
	nodes        corelisters.NodeLister
	pods         *podworkload.Control
	now          func() time.Time
}

// podEventBatch is how long a pod event waits before its job syncs, so that the pods
// of a wave (created together, finishing together) cost the job one sync and one
// status write, not one each; kube's Job controller batches its pod events likewise.
const podEventBatch = time.Second

// New builds the controller on the shared informers.
func New(ctx context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	jobInformer := cc.KruiseInformers.Apps().V1beta1().BroadcastJobs()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	nodeInformer := cc.KubeInformers.Core().V1().Nodes()
	recorder := cc.Recorder(ControllerName)
	c := &Controller{
		kruiseClient: cc.KruiseClient,
		recorder:     recorder,
		jobs:         jobInformer.Lister(),
		nodes:        nodeInformer.Lister(),
		now:          time.Now,
	}
	base, err := podworkload.NewBase(cc.KubeClient, recorder, api{cc.KruiseClient}, podworkload.Wiring{
		Config:    podworkload.Config{Name: ControllerName, Kind: controllerKind, PodOwnerKind: podOwnerKind, Text: eventText{}},
		Workloads: jobInformer.Informer(), Pods: podInformer.Informer(),
		Synced:        []cache.InformerSynced{nodeInformer.Informer().HasSynced},
		Matching:      c.matching,
		PodEventDelay: podEventBatch,
	}, c.sync)
	if err != nil {
		return nil, err
	}
	c.Base, c.pods = base, base.Pods
	if _, err := nodeInformer.Informer().AddEventHandler(nodeplacement.NodeHandler(c.enqueueAll, nodeplacement.WakeOnReadyChange())); err != nil {
		return nil, err
	}
	return c, nil
}

// enqueueAll queues every unfinished job: a node that comes, goes, changes or turns
// Ready may concern any of them (a job runs pods on Ready nodes only, so a node that
// becomes Ready while a completionPolicy Never job runs gets its pod then).
func (c *Controller) enqueueAll() {
	jobs, err := c.jobs.List(labels.Everything())
	if err != nil {
		return
	}
	for _, job := range jobs {
		if finishedCondition(job) == "" {
			c.Loop.Enqueue(job)
		}
	}
}

// matching names the jobs that may adopt an orphan pod: the one its labels name.
func (c *Controller) matching(pod *corev1.Pod) []string {
	jobs, err := c.jobs.BroadcastJobs(pod.Namespace).List(labels.Everything())
	if err != nil {
		return nil
	}
	return podworkload.MatchingKeys(jobs, selectorOf, pod)
}
