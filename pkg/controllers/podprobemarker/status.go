package podprobemarker

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
)

// syncMarker writes a PodProbeMarker's status: the generation acted on and how many
// active pods it selects. It changes with pods coming and going, not with results.
func (c *Controller) syncMarker(ctx context.Context, key string) (time.Duration, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, nil
	}
	m, err := c.markers.PodProbeMarkers(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	pods, err := c.pods.Pods(ns).List(labels.Everything())
	if err != nil {
		return 0, err
	}
	var matched int64
	for _, p := range pods {
		if active(p) && selects(m, p) {
			matched++
		}
	}
	if m.Status.ObservedGeneration == m.Generation && m.Status.MatchedPods == matched {
		return 0, nil
	}
	upd := m.DeepCopy()
	upd.Status.ObservedGeneration, upd.Status.MatchedPods = m.Generation, matched
	_, err = c.kruise.AppsV1alpha1().PodProbeMarkers(ns).UpdateStatus(ctx, upd, metav1.UpdateOptions{FieldManager: ControllerName})
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		return 0, nil // the newer marker's event syncs again
	}
	return 0, wrap(err, "updating status of PodProbeMarker %s", key)
}
