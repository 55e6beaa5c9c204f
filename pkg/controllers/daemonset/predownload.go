package daemonset

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/imagepredownload"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
)

// syncPreDownload creates or removes the ImagePullJobs pre-downloading the update
// revision's images on the nodes whose pods are not updated yet (feature gate
// PreDownloadImageForDaemonSetUpdate; imagepredownload.Decide is the rule, shared with
// CloneSet and Advanced StatefulSet: in-place rollouts of more than a few nodes that
// do not update every node in one batch).
func (c *Controller) syncPreDownload(ctx context.Context, st *syncState, limits Limits, desired int) error {
	if c.preDownload == nil {
		return nil
	}
	active := make([]*corev1.Pod, 0, len(st.byName))
	for _, pod := range st.byName {
		active = append(active, pod)
	}
	ds := st.ds
	// A DaemonSet keeps no status.currentRevision: the rollout's old revision is the
	// one most pods not yet updated run (none: the rollout is complete).
	// (Set for this call only: the rest of the sync reads none.)
	revs := st.revs
	saved := revs.Current
	revs.Current = oldRevision(revs, active)
	defer func() { revs.Current = saved }()
	return c.preDownload.Sync(ctx, imagepredownload.Workload{
		Owner: ds, Kind: podOwnerKind, Selector: ds.Spec.Selector, Template: &ds.Spec.Template,
		InPlace: inPlace(ds), Replicas: desired, Partition: limits.Partition, MaxUnavailable: limits.MaxUnavailable,
		Revisions: revs, Pods: active,
	})
}

// oldRevision is the revision most of the pods not at the update revision run, or
// the update revision when every pod is updated (or its revision is gone).
func oldRevision(revs *podworkload.Revisions, pods []*corev1.Pod) *appsv1.ControllerRevision {
	count := map[string]int{}
	for _, pod := range pods {
		if !revs.IsUpdated(pod) {
			count[pod.Labels[pub.ControllerRevisionHashLabelKey]]++
		}
	}
	out, most := revs.Update, 0
	for _, r := range revs.All {
		if n := count[r.Name]; n > most {
			out, most = r, n
		}
	}
	return out
}
