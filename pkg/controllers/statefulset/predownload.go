package statefulset

import (
	"context"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/imagepredownload"
)

// syncPreDownload creates or removes the ImagePullJobs pre-downloading the update
// revision's images on the nodes of the pods not updated yet (feature gate
// PreDownloadImageForInPlaceUpdate; imagepredownload.Decide is the rule).
func (c *Controller) syncPreDownload(ctx context.Context, st *syncState) error {
	if c.preDownload == nil {
		return nil
	}
	set := st.set
	var active []*corev1.Pod
	for _, pod := range st.pods {
		if pod.DeletionTimestamp == nil {
			active = append(active, pod)
		}
	}
	p := podUpdatePolicy(set)
	return c.preDownload.Sync(ctx, imagepredownload.Workload{
		Owner: set, Kind: controllerKind, Selector: set.Spec.Selector, Template: &set.Spec.Template,
		Strategy: inPlaceStrategy(st),
		InPlace:  p == v1beta1.InPlaceIfPossiblePodUpdateStrategyType || p == v1beta1.InPlaceOnlyPodUpdateStrategyType,
		Replicas: st.params.Replicas, Partition: st.params.Partition, MaxUnavailable: st.params.MaxUnavailable,
		Revisions: st.revs, Pods: active,
	})
}
