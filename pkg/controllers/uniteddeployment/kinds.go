package uniteddeployment

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/typedkind"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
)

// Where each kind keeps the partition: a CloneSet's and a StatefulSet's partition is
// how many pods keep the old revision (a StatefulSet's: the ordinals below it). A
// Deployment has none: a partition above 0 pauses its rollout, which holds every
// old pod (scaling goes on).

var deleteInBackground = metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationBackground)}

// subsetKind is a kindAdapter from what differs between the kinds: how their status
// and partition read, and how a subset's object is built. Listing (from the cache),
// creating, updating and deleting go through the kind's typed lister and client, the
// same for all of them.
type subsetKind[T typedkind.Object] struct {
	typedkind.Kind[T]
	// observe fills w's counts (only when the status is of the current generation)
	// and partition from obj.
	observe func(obj T, w *workload)
	make    func(ud *v1beta1.UnitedDeployment, d desired) (T, error)
	// setSpec copies src's spec onto dst.
	setSpec func(dst, src T)
}

func (k subsetKind[T]) list(ns string, sel labels.Selector) ([]workload, error) {
	items, err := k.Lister(ns).List(sel)
	if err != nil {
		return nil, err
	}
	out := make([]workload, 0, len(items))
	for _, obj := range items {
		w := readMeta(obj)
		k.observe(obj, &w)
		out = append(out, w)
	}
	return out, nil
}

func (k subsetKind[T]) build(ud *v1beta1.UnitedDeployment, d desired) (metav1.Object, error) {
	return k.make(ud, d)
}

func (k subsetKind[T]) create(ctx context.Context, obj metav1.Object) (string, error) {
	o := obj.(T)
	out, err := k.Client(o.GetNamespace()).Create(ctx, o, metav1.CreateOptions{FieldManager: ControllerName})
	if err != nil {
		return "", err
	}
	return out.GetName(), nil
}

func (k subsetKind[T]) update(ctx context.Context, existing workload, obj metav1.Object) error {
	cur := existing.obj.(T).DeepCopyObject().(T)
	mergeMeta(cur, obj)
	k.setSpec(cur, obj.(T))
	_, err := k.Client(cur.GetNamespace()).Update(ctx, cur, metav1.UpdateOptions{FieldManager: ControllerName})
	return err
}

func (k subsetKind[T]) delete(ctx context.Context, w workload) error {
	return k.Client(w.obj.GetNamespace()).Delete(ctx, w.obj.GetName(), deleteInBackground)
}

// cloneSets adapts CloneSets (v1beta1).
func cloneSets(c kruiseclient.Interface, l kruiselisters.CloneSetLister) subsetKind[*v1beta1.CloneSet] {
	return subsetKind[*v1beta1.CloneSet]{
		Kind: typedkind.Cached(typedkind.New[*v1beta1.CloneSet](v1beta1.SchemeGroupVersion.WithKind("CloneSet"), c.AppsV1beta1().CloneSets), l.CloneSets),
		observe: func(cs *v1beta1.CloneSet, w *workload) {
			if cs.Status.ObservedGeneration == cs.Generation {
				w.replicas, w.ready = cs.Status.Replicas, cs.Status.ReadyReplicas
				w.updated, w.updatedReady = cs.Status.UpdatedReplicas, cs.Status.UpdatedReadyReplicas
			}
			if ru := cs.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
				w.partition = int32(ru.Partition.IntValue())
			}
		},
		make:    buildCloneSet,
		setSpec: func(dst, src *v1beta1.CloneSet) { dst.Spec = src.Spec },
	}
}

func buildCloneSet(ud *v1beta1.UnitedDeployment, d desired) (*v1beta1.CloneSet, error) {
	t := ud.Spec.Template.CloneSetTemplate
	cs := &v1beta1.CloneSet{ObjectMeta: buildMeta(ud, t.ObjectMeta, d), Spec: *t.Spec.DeepCopy()}
	cs.Spec.Replicas = ptr.To(d.replicas)
	cs.Spec.Selector = subsetSelector(ud, d.subset.Name)
	tmpl, err := podTemplateFor(&t.Spec.Template, d)
	if err != nil {
		return nil, err
	}
	cs.Spec.Template = tmpl
	if cs.Spec.UpdateStrategy.RollingUpdate == nil {
		cs.Spec.UpdateStrategy.RollingUpdate = &v1beta1.RollingUpdateCloneSetStrategy{}
	}
	cs.Spec.UpdateStrategy.RollingUpdate.Partition = ptr.To(intstr.FromInt32(d.partition))
	return cs, withHash(&cs.ObjectMeta, cs.Spec)
}

// advancedStatefulSets adapts Advanced StatefulSets (v1beta1).
func advancedStatefulSets(c kruiseclient.Interface, l kruiselisters.StatefulSetLister) subsetKind[*v1beta1.StatefulSet] {
	return subsetKind[*v1beta1.StatefulSet]{
		Kind: typedkind.Cached(typedkind.New[*v1beta1.StatefulSet](v1beta1.SchemeGroupVersion.WithKind("StatefulSet"), c.AppsV1beta1().StatefulSets), l.StatefulSets),
		observe: func(ss *v1beta1.StatefulSet, w *workload) {
			if ss.Status.ObservedGeneration == ss.Generation {
				w.replicas, w.ready = ss.Status.Replicas, ss.Status.ReadyReplicas
				w.updated, w.updatedReady = ss.Status.UpdatedReplicas, ss.Status.UpdatedReadyReplicas
			}
			if ru := ss.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
				w.partition = *ru.Partition
			}
		},
		make:    buildAdvancedStatefulSet,
		setSpec: func(dst, src *v1beta1.StatefulSet) { dst.Spec = src.Spec },
	}
}

func buildAdvancedStatefulSet(ud *v1beta1.UnitedDeployment, d desired) (*v1beta1.StatefulSet, error) {
	t := ud.Spec.Template.AdvancedStatefulSetTemplate
	ss := &v1beta1.StatefulSet{ObjectMeta: buildMeta(ud, t.ObjectMeta, d), Spec: *t.Spec.DeepCopy()}
	ss.Spec.Replicas = ptr.To(d.replicas)
	ss.Spec.Selector = subsetSelector(ud, d.subset.Name)
	tmpl, err := podTemplateFor(&t.Spec.Template, d)
	if err != nil {
		return nil, err
	}
	ss.Spec.Template = tmpl
	if ss.Spec.UpdateStrategy.Type == "" || ss.Spec.UpdateStrategy.Type == appsv1.RollingUpdateStatefulSetStrategyType {
		ss.Spec.UpdateStrategy.Type = appsv1.RollingUpdateStatefulSetStrategyType
		if ss.Spec.UpdateStrategy.RollingUpdate == nil {
			ss.Spec.UpdateStrategy.RollingUpdate = &v1beta1.RollingUpdateStatefulSetStrategy{}
		}
		ss.Spec.UpdateStrategy.RollingUpdate.Partition = ptr.To(d.partition)
	}
	return ss, withHash(&ss.ObjectMeta, ss.Spec)
}

// statefulSets adapts kube's apps/v1 StatefulSets.
func statefulSets(c kubernetes.Interface, l appslisters.StatefulSetLister) subsetKind[*appsv1.StatefulSet] {
	return subsetKind[*appsv1.StatefulSet]{
		Kind: typedkind.Cached(typedkind.New[*appsv1.StatefulSet](appsv1.SchemeGroupVersion.WithKind("StatefulSet"), c.AppsV1().StatefulSets), l.StatefulSets),
		observe: func(ss *appsv1.StatefulSet, w *workload) {
			if ss.Status.ObservedGeneration == ss.Generation {
				w.replicas, w.ready, w.updated = ss.Status.Replicas, ss.Status.ReadyReplicas, ss.Status.UpdatedReplicas
				w.updatedReady = updatedReady(ss.Status.Replicas, ss.Status.ReadyReplicas, ss.Status.UpdatedReplicas)
			}
			if ru := ss.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
				w.partition = *ru.Partition
			}
		},
		make:    buildStatefulSet,
		setSpec: func(dst, src *appsv1.StatefulSet) { dst.Spec = src.Spec },
	}
}

// updatedReady estimates updated and ready pods for kube's workloads, which do not
// count them: all ready ones when every pod is updated, else at most the updated ones.
func updatedReady(replicas, ready, updated int32) int32 {
	if updated >= replicas {
		return ready
	}
	return min(ready, updated)
}

func buildStatefulSet(ud *v1beta1.UnitedDeployment, d desired) (*appsv1.StatefulSet, error) {
	t := ud.Spec.Template.StatefulSetTemplate
	ss := &appsv1.StatefulSet{ObjectMeta: buildMeta(ud, t.ObjectMeta, d), Spec: *t.Spec.DeepCopy()}
	ss.Spec.Replicas = ptr.To(d.replicas)
	ss.Spec.Selector = subsetSelector(ud, d.subset.Name)
	tmpl, err := podTemplateFor(&t.Spec.Template, d)
	if err != nil {
		return nil, err
	}
	ss.Spec.Template = tmpl
	if ss.Spec.UpdateStrategy.Type == "" || ss.Spec.UpdateStrategy.Type == appsv1.RollingUpdateStatefulSetStrategyType {
		ss.Spec.UpdateStrategy.Type = appsv1.RollingUpdateStatefulSetStrategyType
		if ss.Spec.UpdateStrategy.RollingUpdate == nil {
			ss.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
		}
		ss.Spec.UpdateStrategy.RollingUpdate.Partition = ptr.To(d.partition)
	}
	return ss, withHash(&ss.ObjectMeta, ss.Spec)
}

// deployments adapts kube's apps/v1 Deployments.
func deployments(c kubernetes.Interface, l appslisters.DeploymentLister) subsetKind[*appsv1.Deployment] {
	return subsetKind[*appsv1.Deployment]{
		Kind: typedkind.Cached(typedkind.New[*appsv1.Deployment](appsv1.SchemeGroupVersion.WithKind("Deployment"), c.AppsV1().Deployments), l.Deployments),
		observe: func(dep *appsv1.Deployment, w *workload) {
			if dep.Status.ObservedGeneration == dep.Generation {
				w.replicas, w.ready, w.updated = dep.Status.Replicas, dep.Status.ReadyReplicas, dep.Status.UpdatedReplicas
				w.updatedReady = updatedReady(dep.Status.Replicas, dep.Status.ReadyReplicas, dep.Status.UpdatedReplicas)
			}
			if dep.Spec.Paused {
				w.partition = ptr.Deref(dep.Spec.Replicas, 0)
			}
		},
		make:    buildDeployment,
		setSpec: func(dst, src *appsv1.Deployment) { dst.Spec = src.Spec },
	}
}

func buildDeployment(ud *v1beta1.UnitedDeployment, d desired) (*appsv1.Deployment, error) {
	t := ud.Spec.Template.DeploymentTemplate
	dep := &appsv1.Deployment{ObjectMeta: buildMeta(ud, t.ObjectMeta, d), Spec: *t.Spec.DeepCopy()}
	dep.Spec.Replicas = ptr.To(d.replicas)
	dep.Spec.Selector = subsetSelector(ud, d.subset.Name)
	tmpl, err := podTemplateFor(&t.Spec.Template, d)
	if err != nil {
		return nil, err
	}
	dep.Spec.Template = tmpl
	dep.Spec.Paused = dep.Spec.Paused || d.partition > 0
	return dep, withHash(&dep.ObjectMeta, dep.Spec)
}
