package deletionprotection

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
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
	{rule.ServicesResource.WithVersion("v1"), "Service"},
	{rule.IngressesResource.WithVersion("v1"), "Ingress"},
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
				old, _ := asUnstructured(oldObj)
				cur, _ := asUnstructured(newObj)
				if deletionBegan(old, cur) {
					c.audit(klog.NewContext(ctx, logger), gvr, kind, cur)
				}
			},
			DeleteFunc: func(obj interface{}) {
				last, tombstone := asUnstructured(obj)
				if deletionBegan(last, nil) {
					c.auditGone(klog.NewContext(ctx, logger), gvr, kind, last, tombstone)
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

// asUnstructured returns the object of an event, and whether it is a tombstone (the
// informer missed the deletion and only knows an older state).
func asUnstructured(obj interface{}) (*unstructured.Unstructured, bool) {
	tombstone, isTombstone := obj.(cache.DeletedFinalStateUnknown)
	if isTombstone {
		obj = tombstone.Obj
	}
	u, _ := obj.(*unstructured.Unstructured)
	return u, isTombstone
}

// auditGone audits an object that left the watch without a deletionTimestamp: either
// it was deleted at once, or its label was removed (it no longer matches the
// selector), which is how protection is meant to be lifted and not a miss.
func (c *Controller) auditGone(ctx context.Context, gvr schema.GroupVersionResource, kind string, last *unstructured.Unstructured, tombstone bool) {
	unlabelled, err := c.leftSelector(ctx, gvr, last, tombstone)
	if err != nil {
		klog.FromContext(ctx).Error(err, "Cannot tell whether a protected object was deleted", "kind", kind, "object", klog.KObj(last))
		return
	}
	if !unlabelled {
		c.audit(ctx, gvr, kind, last)
	}
}

// leftSelector reports whether last left the watch because it stopped matching the
// label selector rather than because it was deleted. The watch's DELETED event
// carries the revision of the change that caused it: read the object at exactly that
// revision, where a deleted object is absent and an unlabelled one present. When that
// revision is compacted away, or the event is a tombstone (an older state), what is
// there now decides: the same object without the protection label.
func (c *Controller) leftSelector(ctx context.Context, gvr schema.GroupVersionResource, last *unstructured.Unstructured, tombstone bool) (bool, error) {
	resource := c.dynamic.Resource(gvr).Namespace(last.GetNamespace())
	if !tombstone && last.GetResourceVersion() != "" {
		list, err := resource.List(ctx, metav1.ListOptions{
			FieldSelector:        fields.OneTermEqualSelector("metadata.name", last.GetName()).String(),
			ResourceVersion:      last.GetResourceVersion(),
			ResourceVersionMatch: metav1.ResourceVersionMatchExact,
		})
		if err == nil {
			for _, item := range list.Items {
				if item.GetUID() == last.GetUID() {
					return true, nil
				}
			}
			return false, nil
		}
		klog.FromContext(ctx).V(2).Info("Cannot read the object at the revision it left the watch; reading it now",
			"object", klog.KObj(last), "resourceVersion", last.GetResourceVersion(), "err", err)
	}
	cur, err := resource.Get(ctx, last.GetName(), metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return false, nil
	case err != nil:
		return false, err
	}
	return cur.GetUID() == last.GetUID() && !rule.Protected(cur.GetLabels()), nil
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
