package podworkload

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/controller/history"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/ownedpods"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podpatch"
)

// ParallelWrites bounds concurrent pod writes in one sync; the client's QPS limit is
// what really paces them.
const ParallelWrites = 16

// Object is a workload object: its metadata for keys and owner references, and a
// runtime.Object for events.
type Object interface {
	metav1.Object
	runtime.Object
}

// Config says what differs between the workloads sharing a Control.
type Config struct {
	// Name is the controller's name: the field manager of its writes.
	Name string
	// Kind is the workload's kind as its ControllerRevisions' owner references carry it.
	Kind schema.GroupVersionKind
	// PodOwnerKind is the workload's kind as its pods' (and claims') owner references
	// carry it (CloneSet writes v1alpha1 there, as OpenKruise does); Kind when empty.
	PodOwnerKind schema.GroupVersionKind
	// Text words the events of pod and claim writes.
	Text EventText
	// Fresh reads the workload from the API server, not the cache: adoption checks with
	// it that the workload still is the one whose pods it adopts.
	Fresh func(ctx context.Context, namespace, name string) (metav1.Object, error)
	// InPlace is what in-place updates of the workload's pods may change beyond images
	// and metadata (VerticalScaling: resources, through the resize subresource).
	InPlace inplaceupdate.Options
}

// Control is what one workload controller uses to read and write its pods.
type Control struct {
	Config
	client   kubernetes.Interface
	recorder record.EventRecorder
	pods     cache.Indexer
	history  history.Interface

	// Scale holds the creations and deletions not yet seen in the cache.
	Scale *expectations.Scale
	// Versions holds the pods written and not yet seen in the cache at that version.
	Versions *expectations.ResourceVersion
	inPlace  *inplaceupdate.Executor
	hooks    lifecycle.Writer
}

// New builds a Control on the pod and ControllerRevision informers (the pod informer
// carries podindex's indexes, installed by the manager). revisions is nil for a
// workload that keeps none (a job: Workload.NoRevisions), so that it does not make the
// manager watch ControllerRevisions for nothing.
func New(client kubernetes.Interface, recorder record.EventRecorder, pods, revisions cache.SharedIndexInformer, cfg Config) (*Control, error) {
	var hist history.Interface
	if revisions != nil {
		if err := history.AddControllerRevisionControllerIndexer(revisions); err != nil {
			return nil, fmt.Errorf("indexing revisions: %w", err)
		}
		hist = history.NewHistory(client, appslisters.NewControllerRevisionLister(revisions.GetIndexer()), revisions.GetIndexer())
	}
	if cfg.PodOwnerKind.Empty() {
		cfg.PodOwnerKind = cfg.Kind
	}
	patcher := podpatch.New(client.CoreV1(), cfg.Name)
	return &Control{
		Config:   cfg,
		client:   client,
		recorder: recorder,
		pods:     pods.GetIndexer(),
		history:  hist,
		Scale:    expectations.NewScale(),
		Versions: expectations.NewResourceVersion(),
		inPlace:  &inplaceupdate.Executor{Pods: patcher},
		hooks:    lifecycle.Writer{Pods: patcher},
	}, nil
}

// PodHandler routes pod events to the workloads (see ownedpods.Handler); matching
// names the workloads whose selector matches an orphan, which may adopt it.
func (c *Control) PodHandler(enqueue func(key string), matching func(*corev1.Pod) []string) cache.ResourceEventHandler {
	h := &ownedpods.Handler{Owner: c.PodOwnerKind.GroupKind(), Scale: c.Scale, Versions: c.Versions, Enqueue: enqueue, Matching: matching}
	return h.Funcs()
}

// Forget drops what was expected of a deleted workload.
func (c *Control) Forget(key string) { c.Scale.Forget(key) }

// OwnerRef is the controller reference the workload's pods and claims carry.
func (c *Control) OwnerRef(owner metav1.Object) metav1.OwnerReference {
	return *metav1.NewControllerRef(owner, c.PodOwnerKind)
}

// key is the workload's queue key.
func key(owner metav1.Object) string { return owner.GetNamespace() + "/" + owner.GetName() }

func (c *Control) event(owner runtime.Object, eventType, reason, message string) {
	if message != "" {
		c.recorder.Event(owner, eventType, reason, message)
	}
}
