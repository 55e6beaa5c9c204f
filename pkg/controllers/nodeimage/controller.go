// Package nodeimage keeps one NodeImage per Node: it creates a node's NodeImage once
// the node is ready, deletes it with the node, and prunes tags from its spec when
// their TTL after finishing has passed or every job that asked for them is gone.
package nodeimage

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/nodeplacement"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = "nodeimage-controller"

// Controller reconciles the NodeImage of each Node (queue key: the node name).
type Controller struct {
	kruiseClient kruiseclient.Interface
	nodes        corelisters.NodeLister
	nodeImages   kruiselisters.NodeImageLister
	jobs         kruiselisters.ImagePullJobLister
	loop         *reconcile.Loop
	now          func() time.Time
}

// New builds the controller on the shared informers.
func New(_ context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	nodeInformer := cc.KubeInformers.Core().V1().Nodes()
	niInformer := cc.KruiseInformers.Apps().V1alpha1().NodeImages()
	jobInformer := cc.KruiseInformers.Apps().V1alpha1().ImagePullJobs()
	c := &Controller{
		kruiseClient: cc.KruiseClient,
		nodes:        nodeInformer.Lister(),
		nodeImages:   niInformer.Lister(),
		jobs:         jobInformer.Lister(),
		now:          time.Now,
	}
	c.loop = reconcile.NewLoop("nodeimage", c.sync,
		nodeInformer.Informer().HasSynced, niInformer.Informer().HasSynced, jobInformer.Informer().HasSynced)
	if _, err := nodeInformer.Informer().AddEventHandler(c.loop.Handler()); err != nil {
		return nil, err
	}
	if _, err := niInformer.Informer().AddEventHandler(c.loop.Handler()); err != nil {
		return nil, err
	}
	// A deleted job may leave tags behind: look at the NodeImages that list it.
	if _, err := jobInformer.Informer().AddEventHandler(deleteHandler(func(job *v1alpha1.ImagePullJob) {
		for _, name := range c.nodeImagesOwnedBy(job.UID) {
			c.loop.Add(name)
		}
	})); err != nil {
		return nil, err
	}
	return c, nil
}

// Name implements manager.Controller.
func (c *Controller) Name() string { return ControllerName }

// HasSynced implements manager.Controller.
func (c *Controller) HasSynced() bool { return c.loop.HasSynced() }

// Run implements manager.Controller.
func (c *Controller) Run(ctx context.Context, workers int) { c.loop.Run(ctx, workers) }

func (c *Controller) sync(ctx context.Context, name string) (time.Duration, error) {
	logger := klog.FromContext(ctx)
	node, err := c.nodes.Get(name)
	if err != nil && !apierrors.IsNotFound(err) {
		return 0, err
	}
	ni, err := c.nodeImages.Get(name)
	if err != nil && !apierrors.IsNotFound(err) {
		return 0, err
	}
	switch {
	case node == nil && ni != nil:
		logger.V(2).Info("Deleting the NodeImage of a deleted node", "node", name)
		err := c.kruiseClient.AppsV1alpha1().NodeImages().Delete(ctx, name,
			metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &ni.UID}})
		if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
			return 0, nil
		}
		return 0, wrap(err, "deleting NodeImage %s", name)
	case node != nil && ni == nil:
		if !nodeplacement.IsReady(node) || node.DeletionTimestamp != nil {
			return 0, nil
		}
		logger.V(2).Info("Creating the NodeImage of a ready node", "node", name)
		_, err := c.kruiseClient.AppsV1alpha1().NodeImages().Create(ctx,
			&v1alpha1.NodeImage{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{FieldManager: ControllerName})
		if apierrors.IsAlreadyExists(err) {
			return 0, nil
		}
		return 0, wrap(err, "creating NodeImage %s", name)
	case ni != nil:
		return c.prune(ctx, ni)
	}
	return 0, nil
}

// prune removes expired and orphaned tags and says when to look again for the next TTL.
func (c *Controller) prune(ctx context.Context, ni *v1alpha1.NodeImage) (time.Duration, error) {
	spec, next := PruneTags(ni, c.jobExists, c.now())
	if spec == nil {
		return next, nil
	}
	updated := ni.DeepCopy()
	updated.Spec = *spec
	_, err := c.kruiseClient.AppsV1alpha1().NodeImages().Update(ctx, updated, metav1.UpdateOptions{FieldManager: ControllerName})
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		return time.Second, nil // a fresher copy is on its way through the informer
	}
	return next, wrap(err, "pruning tags of NodeImage %s", ni.Name)
}

func (c *Controller) jobExists(ref corev1.ObjectReference) bool {
	job, err := c.jobs.ImagePullJobs(ref.Namespace).Get(ref.Name)
	return err == nil && (ref.UID == "" || job.UID == ref.UID)
}

// nodeImagesOwnedBy lists the NodeImages with a tag owned by the job with uid.
func (c *Controller) nodeImagesOwnedBy(uid types.UID) []string {
	all, err := c.nodeImages.List(everything)
	if err != nil {
		return nil
	}
	var names []string
	for _, ni := range all {
		if ownsTag(ni, uid) {
			names = append(names, ni.Name)
		}
	}
	return names
}

func wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}
