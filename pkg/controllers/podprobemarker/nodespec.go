package podprobemarker

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// syncNodeSpec makes the node's NodePodProbe list what plan.go says, and returns it
// (nil when the node has none). A NodePodProbe is created when its node first has a
// pod to probe and lives as long as the node; it is deleted with the node.
func (c *Controller) syncNodeSpec(ctx context.Context, node string) (*v1alpha1.NodePodProbe, error) {
	logger := klog.FromContext(ctx)
	npp, err := c.nodeProbes.Get(node)
	if err != nil && !apierrors.IsNotFound(err) {
		return nil, err
	}
	if npp != nil && !c.written.Observe(npp) {
		return nil, nil // our last write is not in the cache yet; its event syncs again
	}
	if _, err := c.nodes.Get(node); apierrors.IsNotFound(err) {
		if npp == nil {
			return nil, nil
		}
		logger.V(2).Info("Deleting the NodePodProbe of a deleted node", "node", node)
		err := c.kruise.AppsV1alpha1().NodePodProbes().Delete(ctx, node,
			metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &npp.UID}})
		if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
			return nil, nil
		}
		return nil, wrap(err, "deleting NodePodProbe %s", node)
	} else if err != nil {
		return nil, err
	}

	objs, err := c.podIndexer.ByIndex(nodeIndex, node)
	if err != nil {
		return nil, err
	}
	pods := make([]*corev1.Pod, 0, len(objs))
	namespaces := map[string]bool{}
	for _, o := range objs {
		if p, ok := o.(*corev1.Pod); ok {
			pods = append(pods, p)
			namespaces[p.Namespace] = true
		}
	}
	var markers []*v1alpha1.PodProbeMarker
	for ns := range namespaces {
		ms, err := c.markers.PodProbeMarkers(ns).List(labels.Everything())
		if err != nil {
			return nil, err
		}
		markers = append(markers, ms...)
	}
	want := nodeSpec(pods, markers)

	switch {
	case npp == nil && len(want.PodProbes) == 0:
		return nil, nil
	case npp == nil:
		logger.V(2).Info("Creating the NodePodProbe of a node", "node", node, "pods", len(want.PodProbes))
		created, err := c.kruise.AppsV1alpha1().NodePodProbes().Create(ctx,
			&v1alpha1.NodePodProbe{ObjectMeta: metav1.ObjectMeta{Name: node}, Spec: want},
			metav1.CreateOptions{FieldManager: ControllerName})
		if apierrors.IsAlreadyExists(err) {
			return nil, nil // the informer brings it, and a sync with it
		}
		if err != nil {
			return nil, wrap(err, "creating NodePodProbe %s", node)
		}
		c.written.Expect(created)
		return created, nil
	case apiequality.Semantic.DeepEqual(npp.Spec, want) ||
		(len(npp.Spec.PodProbes) == 0 && len(want.PodProbes) == 0):
		return npp, nil
	}
	upd := npp.DeepCopy()
	upd.Spec = want
	logger.V(2).Info("Updating the NodePodProbe of a node", "node", node, "pods", len(want.PodProbes))
	updated, err := c.kruise.AppsV1alpha1().NodePodProbes().Update(ctx, upd, metav1.UpdateOptions{FieldManager: ControllerName})
	if apierrors.IsConflict(err) || isNotFound(err) {
		return nil, nil // a newer NodePodProbe is on its way to the cache
	}
	if err != nil {
		return nil, wrap(err, "updating NodePodProbe %s", node)
	}
	c.written.Expect(updated)
	return updated, nil
}

func wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}
