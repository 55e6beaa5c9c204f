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
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
)

// Where each kind keeps the partition: a CloneSet's and a StatefulSet's partition is
// how many pods keep the old revision (a StatefulSet's: the ordinals below it). A
// Deployment has none: a partition above 0 pauses its rollout, which holds every
// old pod (scaling goes on).

var deleteInBackground = metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationBackground)}

// cloneSets adapts CloneSets (v1beta1).
type cloneSets struct {
	client kruiseclient.Interface
	lister kruiselisters.CloneSetLister
}

func (a cloneSets) list(ns string, sel labels.Selector) ([]workload, error) {
	items, err := a.lister.CloneSets(ns).List(sel)
	if err != nil {
		return nil, err
	}
	out := make([]workload, 0, len(items))
	for _, cs := range items {
		w := readMeta(cs)
		if cs.Status.ObservedGeneration == cs.Generation {
			w.replicas, w.ready = cs.Status.Replicas, cs.Status.ReadyReplicas
			w.updated, w.updatedReady = cs.Status.UpdatedReplicas, cs.Status.UpdatedReadyReplicas
		}
		if ru := cs.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
			w.partition = int32(ru.Partition.IntValue())
		}
		out = append(out, w)
	}
	return out, nil
}

func (a cloneSets) build(ud *v1beta1.UnitedDeployment, d desired) (metav1.Object, error) {
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

func (a cloneSets) create(ctx context.Context, obj metav1.Object) (string, error) {
	cs := obj.(*v1beta1.CloneSet)
	out, err := a.client.AppsV1beta1().CloneSets(cs.Namespace).Create(ctx, cs, metav1.CreateOptions{FieldManager: ControllerName})
	if err != nil {
		return "", err
	}
	return out.Name, nil
}

func (a cloneSets) update(ctx context.Context, existing workload, obj metav1.Object) error {
	cs := existing.obj.(*v1beta1.CloneSet).DeepCopy()
	mergeMeta(&cs.ObjectMeta, obj)
	cs.Spec = obj.(*v1beta1.CloneSet).Spec
	_, err := a.client.AppsV1beta1().CloneSets(cs.Namespace).Update(ctx, cs, metav1.UpdateOptions{FieldManager: ControllerName})
	return err
}

func (a cloneSets) delete(ctx context.Context, w workload) error {
	return a.client.AppsV1beta1().CloneSets(w.obj.GetNamespace()).Delete(ctx, w.obj.GetName(), deleteInBackground)
}

// advancedStatefulSets adapts Advanced StatefulSets (v1beta1).
type advancedStatefulSets struct {
	client kruiseclient.Interface
	lister kruiselisters.StatefulSetLister
}

func (a advancedStatefulSets) list(ns string, sel labels.Selector) ([]workload, error) {
	items, err := a.lister.StatefulSets(ns).List(sel)
	if err != nil {
		return nil, err
	}
	out := make([]workload, 0, len(items))
	for _, ss := range items {
		w := readMeta(ss)
		if ss.Status.ObservedGeneration == ss.Generation {
			w.replicas, w.ready = ss.Status.Replicas, ss.Status.ReadyReplicas
			w.updated, w.updatedReady = ss.Status.UpdatedReplicas, ss.Status.UpdatedReadyReplicas
		}
		if ru := ss.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
			w.partition = *ru.Partition
		}
		out = append(out, w)
	}
	return out, nil
}

func (a advancedStatefulSets) build(ud *v1beta1.UnitedDeployment, d desired) (metav1.Object, error) {
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

func (a advancedStatefulSets) create(ctx context.Context, obj metav1.Object) (string, error) {
	ss := obj.(*v1beta1.StatefulSet)
	out, err := a.client.AppsV1beta1().StatefulSets(ss.Namespace).Create(ctx, ss, metav1.CreateOptions{FieldManager: ControllerName})
	if err != nil {
		return "", err
	}
	return out.Name, nil
}

func (a advancedStatefulSets) update(ctx context.Context, existing workload, obj metav1.Object) error {
	ss := existing.obj.(*v1beta1.StatefulSet).DeepCopy()
	mergeMeta(&ss.ObjectMeta, obj)
	ss.Spec = obj.(*v1beta1.StatefulSet).Spec
	_, err := a.client.AppsV1beta1().StatefulSets(ss.Namespace).Update(ctx, ss, metav1.UpdateOptions{FieldManager: ControllerName})
	return err
}

func (a advancedStatefulSets) delete(ctx context.Context, w workload) error {
	return a.client.AppsV1beta1().StatefulSets(w.obj.GetNamespace()).Delete(ctx, w.obj.GetName(), deleteInBackground)
}

// statefulSets adapts kube's apps/v1 StatefulSets.
type statefulSets struct {
	client kubernetes.Interface
	lister appslisters.StatefulSetLister
}

func (a statefulSets) list(ns string, sel labels.Selector) ([]workload, error) {
	items, err := a.lister.StatefulSets(ns).List(sel)
	if err != nil {
		return nil, err
	}
	out := make([]workload, 0, len(items))
	for _, ss := range items {
		w := readMeta(ss)
		if ss.Status.ObservedGeneration == ss.Generation {
			w.replicas, w.ready, w.updated = ss.Status.Replicas, ss.Status.ReadyReplicas, ss.Status.UpdatedReplicas
			w.updatedReady = updatedReady(ss.Status.Replicas, ss.Status.ReadyReplicas, ss.Status.UpdatedReplicas)
		}
		if ru := ss.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
			w.partition = *ru.Partition
		}
		out = append(out, w)
	}
	return out, nil
}

// updatedReady estimates updated and ready pods for kube's workloads, which do not
// count them: all ready ones when every pod is updated, else at most the updated ones.
func updatedReady(replicas, ready, updated int32) int32 {
	if updated >= replicas {
		return ready
	}
	return min(ready, updated)
}

func (a statefulSets) build(ud *v1beta1.UnitedDeployment, d desired) (metav1.Object, error) {
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

func (a statefulSets) create(ctx context.Context, obj metav1.Object) (string, error) {
	ss := obj.(*appsv1.StatefulSet)
	out, err := a.client.AppsV1().StatefulSets(ss.Namespace).Create(ctx, ss, metav1.CreateOptions{FieldManager: ControllerName})
	if err != nil {
		return "", err
	}
	return out.Name, nil
}

func (a statefulSets) update(ctx context.Context, existing workload, obj metav1.Object) error {
	ss := existing.obj.(*appsv1.StatefulSet).DeepCopy()
	mergeMeta(&ss.ObjectMeta, obj)
	ss.Spec = obj.(*appsv1.StatefulSet).Spec
	_, err := a.client.AppsV1().StatefulSets(ss.Namespace).Update(ctx, ss, metav1.UpdateOptions{FieldManager: ControllerName})
	return err
}

func (a statefulSets) delete(ctx context.Context, w workload) error {
	return a.client.AppsV1().StatefulSets(w.obj.GetNamespace()).Delete(ctx, w.obj.GetName(), deleteInBackground)
}

// deployments adapts kube's apps/v1 Deployments.
type deployments struct {
	client kubernetes.Interface
	lister appslisters.DeploymentLister
}

func (a deployments) list(ns string, sel labels.Selector) ([]workload, error) {
	items, err := a.lister.Deployments(ns).List(sel)
	if err != nil {
		return nil, err
	}
	out := make([]workload, 0, len(items))
	for _, dep := range items {
		w := readMeta(dep)
		if dep.Status.ObservedGeneration == dep.Generation {
			w.replicas, w.ready, w.updated = dep.Status.Replicas, dep.Status.ReadyReplicas, dep.Status.UpdatedReplicas
			w.updatedReady = updatedReady(dep.Status.Replicas, dep.Status.ReadyReplicas, dep.Status.UpdatedReplicas)
		}
		if dep.Spec.Paused {
			w.partition = ptr.Deref(dep.Spec.Replicas, 0)
		}
		out = append(out, w)
	}
	return out, nil
}

func (a deployments) build(ud *v1beta1.UnitedDeployment, d desired) (metav1.Object, error) {
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

func (a deployments) create(ctx context.Context, obj metav1.Object) (string, error) {
	dep := obj.(*appsv1.Deployment)
	out, err := a.client.AppsV1().Deployments(dep.Namespace).Create(ctx, dep, metav1.CreateOptions{FieldManager: ControllerName})
	if err != nil {
		return "", err
	}
	return out.Name, nil
}

func (a deployments) update(ctx context.Context, existing workload, obj metav1.Object) error {
	dep := existing.obj.(*appsv1.Deployment).DeepCopy()
	mergeMeta(&dep.ObjectMeta, obj)
	dep.Spec = obj.(*appsv1.Deployment).Spec
	_, err := a.client.AppsV1().Deployments(dep.Namespace).Update(ctx, dep, metav1.UpdateOptions{FieldManager: ControllerName})
	return err
}

func (a deployments) delete(ctx context.Context, w workload) error {
	return a.client.AppsV1().Deployments(w.obj.GetNamespace()).Delete(ctx, w.obj.GetName(), deleteInBackground)
}
