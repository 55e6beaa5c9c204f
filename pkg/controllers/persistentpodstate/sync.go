package persistentpodstate

import (
	"context"
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/ordinals"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podindex"
	"github.com/kruise-native/kruise-native/pkg/persistentpodstate"
)

// workload is what the controller needs of a StatefulSet of either group.
type workload struct {
	meta       metav1.Object
	apiVersion string
	desired    ordinals.Desired
}

// cachedWorkload reads a workload with get (a lister's Get), nil when there is none;
// apiVersion is what generated objects name it with.
func cachedWorkload[T metav1.Object](get func(name string) (T, error), name, apiVersion string,
	desired func(T) (ordinals.Desired, error)) (*workload, error) {
	o, err := get(name)
	if apierrors.IsNotFound(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	d, err := desired(o)
	if err != nil {
		return nil, err
	}
	return &workload{meta: o, apiVersion: apiVersion, desired: d}, nil
}

// advancedDesired: an Advanced StatefulSet's ordinals skip its reserved ones.
func advancedDesired(o *appsv1beta1.StatefulSet) (ordinals.Desired, error) {
	reserved, err := ordinals.ParseReserved(o.Spec.ReserveOrdinals)
	if err != nil {
		return ordinals.Desired{}, err
	}
	start := 0
	if o.Spec.Ordinals != nil {
		start = int(o.Spec.Ordinals.Start)
	}
	return ordinals.NewDesired(start, int(replicas(o.Spec.Replicas)), reserved), nil
}

// statefulSetDesired: kube's StatefulSet counts from its start ordinal.
func statefulSetDesired(o *appsv1.StatefulSet) (ordinals.Desired, error) {
	start := 0
	if o.Spec.Ordinals != nil {
		start = int(o.Spec.Ordinals.Start)
	}
	return ordinals.NewDesired(start, int(replicas(o.Spec.Replicas)), ordinals.Reserved{}), nil
}

// getWorkload reads a StatefulSet from the caches; nil when there is none (or the kind
// is not one this controller follows).
func (c *Controller) getWorkload(gk schema.GroupKind, ns, name string) (*workload, error) {
	switch gk {
	case kruiseStatefulSet:
		return cachedWorkload(c.advancedStatefulSets.StatefulSets(ns).Get, name, appsv1beta1.SchemeGroupVersion.String(), advancedDesired)
	case kubeStatefulSet:
		return cachedWorkload(c.statefulSets.StatefulSets(ns).Get, name, appsv1.SchemeGroupVersion.String(), statefulSetDesired)
	}
	return nil, nil
}

func replicas(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}

// sync records the pods of one PersistentPodState's target and writes the status
// when it changed (one write per change, never per pod event).
func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, err
	}
	pps, err := c.states.PersistentPodStates(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	if pps.DeletionTimestamp != nil {
		return 0, nil
	}
	ref := pps.Spec.TargetReference
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return 0, nil // validation refuses it; nothing to follow
	}
	w, err := c.getWorkload(gv.WithKind(ref.Kind).GroupKind(), ns, ref.Name)
	if err != nil {
		return 0, fmt.Errorf("reading the target of PersistentPodState %s: %w", key, err)
	}
	target := persistentpodstate.Target{Gone: w == nil || w.meta.GetDeletionTimestamp() != nil}
	var pods []*corev1.Pod
	if !target.Gone {
		setName := w.meta.GetName()
		target.Desired = func(pod string) bool { return w.desired.Has(ordinals.OrdinalOf(setName, pod)) }
		if pods, err = podindex.PodsOwnedBy(c.pods, w.meta.GetUID()); err != nil {
			return 0, err
		}
	}
	status := persistentpodstate.Record(pps, target, pods, func(node string) (map[string]string, bool) {
		n, err := c.nodes.Get(node)
		if err != nil {
			return nil, false
		}
		return n.Labels, true
	})
	if persistentpodstate.StatusEqual(status, pps.Status) {
		return 0, nil
	}
	out := pps.DeepCopy()
	out.Status = status
	if _, err := c.kruise.AppsV1beta1().PersistentPodStates(ns).UpdateStatus(ctx, out, metav1.UpdateOptions{FieldManager: ControllerName}); err != nil {
		return 0, fmt.Errorf("writing the status of PersistentPodState %s: %w", key, err)
	}
	klog.FromContext(ctx).V(2).Info("Recorded pod states", "persistentpodstate", klog.KObj(pps), "pods", len(status.PodStates))
	return 0, nil
}

// workloadKey is the generator's key of a workload: <kind>.<group>/<namespace>/<name>.
func workloadKey(gk schema.GroupKind, ns, name string) string {
	return gk.String() + "/" + ns + "/" + name
}

func parseWorkloadKey(key string) (schema.GroupKind, string, string, error) {
	parts := strings.SplitN(key, "/", 3)
	if len(parts) != 3 {
		return schema.GroupKind{}, "", "", fmt.Errorf("workload key %q", key)
	}
	return schema.ParseGroupKind(parts[0]), parts[1], parts[2], nil
}
