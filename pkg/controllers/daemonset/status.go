package daemonset

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
)

// computeStatus counts nodes as kube's DaemonSet controller does: an eligible node is
// scheduled when it has a pod, and its oldest pod says whether it is ready,
// available and updated; a pod on a node that should not run one is misscheduled.
func computeStatus(st *syncState) v1beta1.DaemonSetStatus {
	ds := st.ds
	s := v1beta1.DaemonSetStatus{
		ObservedGeneration: ds.Generation,
		UpdateRevision:     st.revs.Update.Name,
		CollisionCount:     &st.revs.CollisionCount,
		Conditions:         ds.Status.Conditions,
	}
	for _, n := range st.nodes {
		if !n.eligibility.ShouldRun {
			if len(n.pods) > 0 {
				s.NumberMisscheduled++
			}
			continue
		}
		s.DesiredNumberScheduled++
		if len(n.pods) == 0 {
			continue
		}
		s.CurrentNumberScheduled++
		pod := n.pods[0]
		if podcondition.IsReady(pod) {
			s.NumberReady++
			if ok, _ := podcondition.AvailableIn(pod, ds.Spec.MinReadySeconds, st.now); ok {
				s.NumberAvailable++
			}
		}
		if st.revs.IsUpdated(pod) {
			s.UpdatedNumberScheduled++
		}
	}
	s.NumberUnavailable = s.DesiredNumberScheduled - s.NumberAvailable
	return s
}

// updateStatus writes status once per sync, and only when it changed.
func (c *Controller) updateStatus(ctx context.Context, st *syncState) error {
	status := computeStatus(st)
	_, err := podworkload.UpdateStatus(ctx, st.ds.Status, status, func(ctx context.Context) (*v1beta1.DaemonSet, error) {
		out := st.ds.DeepCopy()
		out.Status = status
		return c.kruiseClient.AppsV1beta1().DaemonSets(out.Namespace).UpdateStatus(ctx, out, metav1.UpdateOptions{FieldManager: ControllerName})
	})
	if err != nil {
		return fmt.Errorf("updating status: %w", err)
	}
	return nil
}
