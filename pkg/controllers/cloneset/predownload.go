package cloneset

import (
	"context"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/imagepredownload"
)

// syncPreDownload creates or removes the ImagePullJobs pre-downloading the update
// revision's images on the nodes of the pods not updated yet (feature gate
// PreDownloadImageForInPlaceUpdate; imagepredownload.Decide is the rule).
func (c *Controller) syncPreDownload(ctx context.Context, st *syncState) error {
	if c.preDownload == nil {
		return nil
	}
	cs := st.cs
	replicas := 1
	if cs.Spec.Replicas != nil {
		replicas = int(*cs.Spec.Replicas)
	}
	return c.preDownload.Sync(ctx, imagepredownload.Workload{
		Owner: cs, Kind: podOwnerKind, Selector: cs.Spec.Selector, Template: &cs.Spec.Template,
		Strategy: inPlaceStrategy(cs), InPlace: inPlace(cs), Replicas: replicas,
		Partition: st.partition, MaxUnavailable: st.maxUnavailable, Revisions: st.revs, Pods: st.pods,
	})
}
