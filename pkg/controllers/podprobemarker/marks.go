package podprobemarker

import (
	"context"
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podpatch"
)

// markPods writes onto each pod of the NodePodProbe's status what its results say,
// for the pods the spec still lists (by UID: a recreated pod of the same name starts
// unmarked). A pod that already carries it is not written.
func (c *Controller) markPods(ctx context.Context, npp *v1alpha1.NodePodProbe) error {
	listed := map[string]bool{}
	for _, pp := range npp.Spec.PodProbes {
		listed[pp.UID] = true
	}
	var errs []error
	for _, st := range npp.Status.PodProbeStatuses {
		if !listed[st.UID] {
			continue
		}
		if err := c.markPod(ctx, st); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (c *Controller) markPod(ctx context.Context, st v1alpha1.PodProbeStatus) error {
	pod, err := c.pods.Pods(st.Namespace).Get(st.Name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if string(pod.UID) != st.UID || !probed(pod) || !c.written.Observe(pod) {
		return nil
	}
	marked := markPod(pod, st.ProbeStates, c.lookupMarker)
	patch, err := podpatch.Bytes(pod, marked)
	if err != nil || patch == nil {
		return err
	}
	klog.FromContext(ctx).V(2).Info("Marking a pod with its probe results", "pod", klog.KObj(pod), "patch", string(patch))
	written, err := c.patcher.Patch(ctx, pod.Namespace, pod.Name, types.StrategicMergePatchType, patch, "status")
	if isNotFound(err) {
		return nil
	}
	if err != nil {
		return wrap(err, "marking pod %s/%s", pod.Namespace, pod.Name)
	}
	c.written.Expect(written)
	return nil
}
