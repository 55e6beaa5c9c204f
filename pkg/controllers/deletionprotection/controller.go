package deletionprotection

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	rule "github.com/kruise-native/kruise-native/pkg/deletionprotection"
)

// ControllerName names the controller in logs and events.
const ControllerName = "deletion-protection-audit"

// watched are the kinds the deletion webhook guards, by the resource it registers.
var watched = []struct {
	gvr  schema.GroupVersionResource
	kind string
}{
	{rule.NamespacesResource.WithVersion("v1"), "Namespace"},
	{rule.CRDsResource.WithVersion("v1"), "CustomResourceDefinition"},
	{rule.DeploymentsResource.WithVersion("v1"), "Deployment"},
	{rule.ReplicaSetsResource.WithVersion("v1"), "ReplicaSet"},
	{rule.StatefulSetsResource.WithVersion("v1"), "StatefulSet"},
}

// Controller counts the deletions of labelled objects the rule forbade.
type Controller struct {
	dynamic  dynamic.Interface
	lookup   rule.Lookup
	recorder record.EventRecorder
	factory  dynamicinformer.DynamicSharedInformerFactory
	synced   []cache.InformerSynced
}

// New builds the controller on labelled objects only: the informers' label selector
// is the webhook's objectSelector.
func New(ctx context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	if cc.Dynamic == nil || cc.Metadata == nil {
		return nil, fmt.Errorf("%s needs the dynamic and metadata clients", ControllerName)
	}
	protected, err := labels.NewRequirement(pub.DeletionProtectionKey, selection.In,
		[]string{pub.DeletionProtectionTypeAlways, pub.DeletionProtectionTypeCascading})
	if err != nil {
		return nil, err
	}
	selector := labels.NewSelector().Add(*protected).String()
	c := &Controller{
		dynamic: cc.Dynamic,
		lookup: rule.Lookup{
			// The pod cache kruise-controller keeps anyway: it still holds the pods
			// the namespace controller has just begun to delete.
			NamespacePods: rule.CachedPods(cc.KubeInformers.Core().V1().Pods().Lister()),
			Metadata:      cc.Metadata,
		},
		recorder: cc.Recorder(ControllerName),
		factory: dynamicinformer.NewFilteredDynamicSharedInformerFactory(cc.Dynamic, 0, metav1.NamespaceAll,
			func(o *metav1.ListOptions) { o.LabelSelector = selector }),
	}
	logger := klog.FromContext(ctx).WithValues("controller", ControllerName)
	for _, w := range watched {
		informer := c.factory.ForResource(w.gvr).Informer()
		gvr, kind := w.gvr, w.kind
		_, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
			UpdateFunc: func(oldObj, newObj interface{}) {
				old, cur := asUnstructured(oldObj), asUnstructured(newObj)
				if deletionBegan(old, cur) {
					c.audit(klog.NewContext(ctx, logger), gvr, kind, cur)
				}
			},
			DeleteFunc: func(obj interface{}) {
				last := asUnstructured(obj)
				if deletionBegan(last, nil) {
					c.auditGone(klog.NewContext(ctx, logger), gvr, kind, last)
				}
			},
		})
		if err != nil {
			return nil, fmt.Errorf("watching %s: %w", gvr.GroupResource(), err)
		}
		c.synced = append(c.synced, informer.HasSynced)
	}
	c.synced = append(c.synced, cc.KubeInformers.Core().V1().Pods().Informer().HasSynced)
	return c, nil
}

func asUnstructured(obj interface{}) *unstructured.Unstructured {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	u, _ := obj.(*unstructured.Unstructured)
	return u
}

// auditGone audits an object that left the watch without a deletionTimestamp: either
// it was deleted at once, or its label was removed (it no longer matches the
// selector), which is how protection is meant to be lifted and not a miss.
func (c *Controller) auditGone(ctx context.Context, gvr schema.GroupVersionResource, kind string, last *unstructured.Unstructured) {
	cur, err := c.dynamic.Resource(gvr).Namespace(last.GetNamespace()).Get(ctx, last.GetName(), metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
	case err != nil:
		klog.FromContext(ctx).Error(err, "Cannot tell whether a protected object was deleted", "kind", kind, "object", klog.KObj(last))
		return
	case cur.GetUID() == last.GetUID() && cur.GetDeletionTimestamp() == nil:
		return // still there: unlabelled
	}
	c.audit(ctx, gvr, kind, last)
}

// audit applies the rule to the last state of obj, whose deletion began: a refusal
// means the webhook did not guard it.
func (c *Controller) audit(ctx context.Context, gvr schema.GroupVersionResource, kind string, obj *unstructured.Unstructured) {
	logger := klog.FromContext(ctx)
	reason, err := rule.Refusal(obj.GetLabels(), c.lookup.ChildrenOf(ctx, gvr.GroupResource(), obj))
	if err != nil {
		logger.Error(err, "Cannot audit the deletion of a protected object", "kind", kind, "object", klog.KObj(obj))
		return
	}
	if reason == "" {
		return
	}
	unguardedDeletes.WithLabelValues(kind).Inc()
	logger.Info("Protected object deleted without the deletion webhook's check", "kind", kind, "object", klog.KObj(obj), "rule", reason)
	c.recorder.Eventf(obj, corev1.EventTypeWarning, "UnguardedDeletion",
		"Deleted although %s (kruise-apiserver's deletion webhook did not check it)", reason)
}

// Name implements manager.Controller.
func (c *Controller) Name() string { return ControllerName }

// HasSynced implements manager.Controller.
func (c *Controller) HasSynced() bool {
	for _, s := range c.synced {
		if !s() {
			return false
		}
	}
	return true
}

// Run implements manager.Controller: the informers' handlers do the work.
func (c *Controller) Run(ctx context.Context, _ int) {
	c.factory.Start(ctx.Done())
	defer c.factory.Shutdown()
	<-ctx.Done()
}
