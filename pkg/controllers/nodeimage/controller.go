// Package nodeimage keeps one NodeImage per Node: it creates a node's NodeImage once
// the node is ready and deletes it with the node. It never writes a NodeImage's spec:
// the imagepulljob controller is the one writer of that (it lists tags for jobs and
// prunes them), the node daemon of the node the one writer of its status.
package nodeimage

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
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
	loop         *reconcile.Loop
}

// New builds the controller on the shared informers.
func New(_ context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	nodeInformer := cc.KubeInformers.Core().V1().Nodes()
	niInformer := cc.KruiseInformers.Apps().V1alpha1().NodeImages()
	c := &Controller{
		kruiseClient: cc.KruiseClient,
		nodes:        nodeInformer.Lister(),
		nodeImages:   niInformer.Lister(),
	}
	c.loop = reconcile.NewLoop("nodeimage", c.sync, nodeInformer.Informer().HasSynced, niInformer.Informer().HasSynced)
	if _, err := nodeInformer.Informer().AddEventHandler(c.loop.Handler()); err != nil {
		return nil, err
	}
	// Only a NodeImage's coming and going matters here, not its spec or status.
	if _, err := niInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.loop.Enqueue, DeleteFunc: c.loop.Enqueue,
	}); err != nil {
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
	}
	return 0, nil
}

func wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}
