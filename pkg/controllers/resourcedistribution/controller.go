// Package resourcedistribution copies the Secret or ConfigMap of each
// ResourceDistribution into its target namespaces and keeps the copies in sync: it
// creates them in namespaces that start to match, rewrites them when the source
// changes, deletes them where a namespace stops matching, and never writes an object it
// did not create (a conflict, reported in status and by an event), nor creates a copy
// in a namespace where the user it writes for (recorded by kruise-apiserver) may not
// create it (a SubjectAccessReview; reported in status and by an event). Deleting the
// distribution deletes its copies through the garbage collector (controller
// references), so that it needs neither this controller running nor a finalizer.
package resourcedistribution

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	rdcontract "github.com/kruise-native/kruise-native/pkg/apis/apps/rules/resourcedistribution"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/controllerref"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = "resourcedistribution-controller"

// conflictRecheck is how soon a distribution with conflicts looks again: the objects
// in the way are not ours, not in the cache, and their removal sends no event.
const conflictRecheck = 30 * time.Second

// accessRecheck is how soon a distribution whose user may not write into some target
// namespace asks again: a right granted later sends no event either.
const accessRecheck = 30 * time.Second

// Controller reconciles ResourceDistributions.
type Controller struct {
	kubeClient    kubernetes.Interface
	kruiseClient  kruiseclient.Interface
	recorder      record.EventRecorder
	distributions kruiselisters.ResourceDistributionLister
	namespaces    corelisters.NamespaceLister
	copyFactory   kubeinformers.SharedInformerFactory
	stores        map[string]*store
	access        *reviewer
	loop          *reconcile.Loop
	now           func() time.Time
}

// New builds the controller: distributions and namespaces from the shared informers,
// and its own informers on ConfigMaps and Secrets carrying the copy label (a watch on
// every Secret of the cluster would cache far more, and far more sensitive data, than
// the copies it manages).
func New(_ context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	rdInformer := cc.KruiseInformers.Apps().V1alpha1().ResourceDistributions()
	nsInformer := cc.KubeInformers.Core().V1().Namespaces()
	copyFactory := kubeinformers.NewSharedInformerFactoryWithOptions(cc.KubeClient, 0,
		kubeinformers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = rdcontract.CopyLabel }))
	cmInformer := copyFactory.Core().V1().ConfigMaps().Informer()
	secretInformer := copyFactory.Core().V1().Secrets().Informer()
	for _, inf := range []cache.SharedIndexInformer{cmInformer, secretInformer} {
		if err := inf.AddIndexers(cache.Indexers{ownerIndex: indexByController}); err != nil {
			return nil, err
		}
	}
	c := &Controller{
		kubeClient:    cc.KubeClient,
		kruiseClient:  cc.KruiseClient,
		recorder:      cc.Recorder(ControllerName),
		distributions: rdInformer.Lister(),
		namespaces:    nsInformer.Lister(),
		copyFactory:   copyFactory,
		stores:        newStores(cc.KubeClient, cmInformer, secretInformer),
		access:        newReviewer(cc.KubeClient),
		now:           time.Now,
	}
	c.loop = reconcile.NewLoop("resourcedistribution", c.sync, rdInformer.Informer().HasSynced,
		nsInformer.Informer().HasSynced, cmInformer.HasSynced, secretInformer.HasSynced)
	if _, err := rdInformer.Informer().AddEventHandler(c.loop.Handler()); err != nil {
		return nil, err
	}
	if _, err := nsInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj interface{}) { c.onNamespace(nil, obj) },
		UpdateFunc: c.onNamespace,
		DeleteFunc: func(obj interface{}) { c.onNamespace(nil, obj) },
	}); err != nil {
		return nil, err
	}
	// A copy changed or deleted by someone else is put back.
	owner := controllerref.EnqueueClusterScopedOwner(distributionKind.GroupKind(), c.loop.Add)
	for _, inf := range []cache.SharedIndexInformer{cmInformer, secretInformer} {
		if _, err := inf.AddEventHandler(owner); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// onNamespace queues every distribution the namespace concerns before or after the
// change: a new namespace may need a copy, a relabelled one may gain or lose one, a
// deleted one that was included by name is reported missing.
func (c *Controller) onNamespace(oldObj, obj interface{}) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	ns, ok := obj.(*corev1.Namespace)
	if !ok {
		return
	}
	old, _ := oldObj.(*corev1.Namespace)
	if old != nil && reflect.DeepEqual(old.Labels, ns.Labels) && rdcontract.Terminating(old) == rdcontract.Terminating(ns) {
		return
	}
	rds, err := c.distributions.List(labels.Everything())
	if err != nil {
		return
	}
	for _, rd := range rds {
		if rdcontract.Concerns(&rd.Spec.Targets, ns) || (old != nil && rdcontract.Concerns(&rd.Spec.Targets, old)) {
			c.loop.Add(rd.Name)
		}
	}
}

// Name implements manager.Controller.
func (c *Controller) Name() string { return ControllerName }

// HasSynced implements manager.Controller.
func (c *Controller) HasSynced() bool { return c.loop.HasSynced() }

// Run implements manager.Controller.
func (c *Controller) Run(ctx context.Context, workers int) {
	c.copyFactory.Start(ctx.Done())
	defer c.copyFactory.Shutdown()
	c.loop.Run(ctx, workers)
}

func (c *Controller) sync(ctx context.Context, name string) (time.Duration, error) {
	rd, err := c.distributions.Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil // the garbage collector deletes the copies it owned
	}
	if err != nil || rd.DeletionTimestamp != nil {
		return 0, err
	}
	logger := klog.FromContext(ctx).WithValues("resourceDistribution", klog.KObj(rd))
	res, errs := rdcontract.Decode(rd.Spec.Resource.Raw, field.NewPath("spec", "resource"))
	if len(errs) > 0 {
		// Validation refuses this; a stored one (older rules) waits for a new spec.
		c.recorder.Eventf(rd, corev1.EventTypeWarning, "InvalidResource", "spec.resource cannot be distributed: %v", errs.ToAggregate())
		return 0, nil
	}
	st := c.stores[res.Kind()]
	src := Source{Distribution: rd, Resource: res, Hash: rdcontract.Hash(rd.Spec.Resource.Raw)}

	all, err := c.namespaces.List(labels.Everything())
	if err != nil {
		return 0, err
	}
	targets, err := rdcontract.Targets(&rd.Spec.Targets, all)
	if err != nil {
		c.recorder.Eventf(rd, corev1.EventTypeWarning, "InvalidTargets", "%v", err)
		return 0, nil
	}
	owned, err := st.owned(string(rd.UID))
	if err != nil {
		return 0, err
	}

	failures := Failures{}
	for _, ns := range targets.Missing {
		failures.Add(v1alpha1.ResourceDistributionNamespaceNotExists, ns, "namespace not found or is terminating")
	}
	found := map[string]Object{}
	for _, ns := range Unknown(src, targets, owned) {
		obj, err := st.get(ctx, ns, src.Name())
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			failures.Add(v1alpha1.ResourceDistributionGetResourceFailed, ns, err.Error())
		default:
			found[ns] = obj
		}
	}
	plan := Compute(src, targets, owned, found)
	for ns := range failures[v1alpha1.ResourceDistributionGetResourceFailed] {
		plan = dropNamespace(plan, ns)
	}
	for ns, reason := range plan.Conflicts {
		failures.Add(v1alpha1.ResourceDistributionConflictOccurred, ns, reason)
	}
	var denied map[string]string
	plan.Create, denied, err = c.permittedCreates(ctx, rd, res, plan.Create)
	if err != nil {
		return 0, err
	}
	for ns, reason := range denied {
		failures.Add(v1alpha1.ResourceDistributionCreateResourceFailed, ns, reason)
	}

	succeeded := len(plan.InSync)
	for _, obj := range plan.Create {
		if err := st.create(ctx, obj); err != nil {
			failures.Add(v1alpha1.ResourceDistributionCreateResourceFailed, obj.GetNamespace(), err.Error())
			continue
		}
		logger.V(2).Info("Created a copy", "kind", st.kind, "copy", klog.KObj(obj))
		succeeded++
	}
	for _, obj := range plan.Update {
		if err := st.update(ctx, obj); err != nil {
			failures.Add(v1alpha1.ResourceDistributionUpdateResourceFailed, obj.GetNamespace(), err.Error())
			continue
		}
		logger.V(2).Info("Updated a copy", "kind", st.kind, "copy", klog.KObj(obj))
		succeeded++
	}
	for _, obj := range plan.Replace {
		if err := deleteCopy(ctx, st, obj); err != nil {
			failures.Add(v1alpha1.ResourceDistributionUpdateResourceFailed, obj.GetNamespace(), err.Error())
			continue
		}
		if err := st.create(ctx, src.Desired(obj.GetNamespace())); err != nil {
			failures.Add(v1alpha1.ResourceDistributionCreateResourceFailed, obj.GetNamespace(), err.Error())
			continue
		}
		logger.V(2).Info("Replaced an immutable copy", "kind", st.kind, "copy", klog.KObj(obj))
		succeeded++
	}
	for _, obj := range plan.Delete {
		if err := deleteCopy(ctx, st, obj); err != nil {
			failures.Add(v1alpha1.ResourceDistributionDeleteResourceFailed, obj.GetNamespace(), err.Error())
			continue
		}
		logger.V(2).Info("Deleted a copy outside the targets", "kind", st.kind, "copy", klog.KObj(obj))
	}

	c.recordNewFailures(rd, failures)
	status := ComputeStatus(&rd.Status, rd.Generation, targets.Desired(), succeeded, failures, metav1.NewTime(c.now()))
	if !apiequality.Semantic.DeepEqual(&rd.Status, &status) {
		updated := rd.DeepCopy()
		updated.Status = status
		if _, err := c.kruiseClient.AppsV1alpha1().ResourceDistributions().UpdateStatus(ctx, updated,
			metav1.UpdateOptions{FieldManager: ControllerName}); err != nil {
			return 0, fmt.Errorf("updating status of ResourceDistribution %s: %w", rd.Name, err)
		}
	}
	if err := writeFailures(failures, denied); err != nil {
		return 0, err // retried with backoff
	}
	switch {
	case len(plan.Conflicts) > 0:
		return conflictRecheck, nil
	case len(denied) > 0:
		return accessRecheck, nil
	}
	return 0, nil
}

// permittedCreates keeps the copies to create in namespaces where the distribution's
// recorded user may create them (rdcontract.Forbidden, by SubjectAccessReview) and
// returns the others with the reason. kruise-apiserver checked the namespaces that
// matched when the spec was written; one that starts to match later (a new or
// relabelled namespace, an included one created) is checked here, before the first
// write. Copies that exist are kept in sync without asking: the user was allowed to
// write them, and revoking that right later does not delete them.
func (c *Controller) permittedCreates(ctx context.Context, rd *v1alpha1.ResourceDistribution, res *rdcontract.Resource,
	creates []Object) ([]Object, map[string]string, error) {
	if len(creates) == 0 {
		return creates, nil, nil
	}
	nss := make([]string, 0, len(creates))
	for _, o := range creates {
		nss = append(nss, o.GetNamespace())
	}
	denied := map[string]string{}
	user, err := rdcontract.DistributorOf(rd.Annotations)
	if err != nil {
		for _, ns := range nss {
			denied[ns] = "not created: " + err.Error()
		}
		return nil, denied, nil
	}
	forbidden, err := rdcontract.Forbidden(ctx, c.access.For(user), res, []string{"create"}, nss)
	if err != nil {
		return nil, nil, fmt.Errorf("checking the rights of %q, who ResourceDistribution %s writes for: %w", user.Username, rd.Name, err)
	}
	keep := creates[:0:0]
	for _, o := range creates {
		ns := o.GetNamespace()
		if why, ok := forbidden[ns]; ok {
			denied[ns] = fmt.Sprintf("forbidden: user %q, who the distribution writes for, %s in this namespace", user.Username, why)
			continue
		}
		keep = append(keep, o)
	}
	return keep, denied, nil
}

// recordNewFailures sends one event per namespace that started failing, by type.
func (c *Controller) recordNewFailures(rd *v1alpha1.ResourceDistribution, failures Failures) {
	for _, typ := range conditionOrder {
		for _, ns := range NewlyFailed(&rd.Status, failures, typ) {
			c.recorder.Eventf(rd, corev1.EventTypeWarning, string(typ), "namespace %s: %s", ns, failures[typ][ns])
		}
	}
}

// writeFailures is an error when a read or write failed: those are retried. Conflicts,
// missing namespaces and creates the user may not make (denied) are not errors: they
// wait for someone to act.
func writeFailures(f Failures, denied map[string]string) error {
	var errs []error
	for _, typ := range []v1alpha1.ResourceDistributionConditionType{
		v1alpha1.ResourceDistributionGetResourceFailed, v1alpha1.ResourceDistributionCreateResourceFailed,
		v1alpha1.ResourceDistributionUpdateResourceFailed, v1alpha1.ResourceDistributionDeleteResourceFailed,
	} {
		for _, ns := range f.Namespaces(typ) {
			if _, ok := denied[ns]; ok && typ == v1alpha1.ResourceDistributionCreateResourceFailed {
				continue
			}
			errs = append(errs, fmt.Errorf("%s in namespace %s: %s", typ, ns, f[typ][ns]))
		}
	}
	return errors.Join(errs...)
}

// dropNamespace removes a namespace whose state could not be read from the plan: no
// write is made there blind.
func dropNamespace(p Plan, ns string) Plan {
	keep := p.Create[:0]
	for _, o := range p.Create {
		if o.GetNamespace() != ns {
			keep = append(keep, o)
		}
	}
	p.Create = keep
	return p
}

// deleteCopy deletes one of our copies with UID and resourceVersion preconditions: an
// object that was replaced or changed hands since it was read is never deleted.
func deleteCopy(ctx context.Context, st *store, obj Object) error {
	uid, rv := obj.GetUID(), obj.GetResourceVersion()
	err := st.delete(ctx, obj.GetNamespace(), obj.GetName(), metav1.DeleteOptions{
		Preconditions: &metav1.Preconditions{UID: &uid, ResourceVersion: &rv}})
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	return nil
}
