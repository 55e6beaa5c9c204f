package cloneset

import (
	"context"
	"fmt"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/imagepredownload"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
)

// syncPreDownload creates or removes the ImagePullJobs pre-downloading the update
// revision's images on the nodes of the pods not updated yet (feature gate
// PreDownloadImageForInPlaceUpdate; imagepredownload.Decide is the rule).
func (c *Controller) syncPreDownload(ctx context.Context, st *syncState) error {
	if c.preDownload == nil || st.revs == nil || st.revs.Update == nil {
		return nil
	}
	cs := st.cs
	r := imagepredownload.Rollout{
		Enabled:         c.preDownloadEnabled,
		InPlace:         inPlace(cs),
		UpdateRevision:  st.revs.Update.Name,
		Partition:       st.partition,
		MaxUnavailable:  st.maxUnavailable,
		Replicas:        1,
		CurrentRevision: st.revs.Update.Name,
	}
	if st.revs.Current != nil {
		r.CurrentRevision = st.revs.Current.Name
	}
	if cs.Spec.Replicas != nil {
		r.Replicas = int(*cs.Spec.Replicas)
	}
	var t imagepredownload.Target
	if r.Enabled && r.CurrentRevision != r.UpdateRevision {
		for _, pod := range st.pods {
			if st.revs.IsUpdated(pod) && podcondition.IsReady(pod) {
				r.UpdatedReady++
			}
		}
		cur, err := st.revs.Template(st.revs.Current)
		if err != nil {
			return fmt.Errorf("reading revision %s: %w", r.CurrentRevision, err)
		}
		r.NewImages = imagepredownload.ChangedImages(&cur.Spec, &cs.Spec.Template.Spec)
		var minReady int
		minReady, t.Parallelism, t.TimeoutSeconds = imagepredownload.Settings(inPlaceStrategy(cs), cs.Annotations)
		r.MinUpdatedReady = minReady
	}
	t.Owner, t.Kind, t.Selector = cs, podOwnerKind, cs.Spec.Selector
	t.RevisionKey, t.UpdateRevision, t.Images = pub.ControllerRevisionHashLabelKey, r.UpdateRevision, r.NewImages
	if err := c.preDownload.Apply(ctx, imagepredownload.Decide(r), t); err != nil {
		return fmt.Errorf("image pre-download: %w", err)
	}
	return nil
}
