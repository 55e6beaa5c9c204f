package imagepredownload

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
)

// Workload is one sync's view of a CloneSet or Advanced StatefulSet.
type Workload struct {
	Owner    metav1.Object
	Kind     schema.GroupVersionKind
	Selector *metav1.LabelSelector
	Template *corev1.PodTemplateSpec
	// Strategy is the in-place update strategy (nil: none); its pre-download fields,
	// else the owner's apps.kruise.io/image-predownload-* annotations, configure the jobs.
	Strategy *pub.InPlaceUpdateStrategy
	InPlace  bool
	Replicas int
	// Partition and MaxUnavailable are the resolved rollout limits.
	Partition, MaxUnavailable int
	Revisions                 *podworkload.Revisions
	// Pods are the workload's active pods.
	Pods []*corev1.Pod
}

// Sync decides (Decide) and applies the decision for one workload: at most one create
// per changed image in the sync that reaches the threshold, a delete per job when the
// rollout completes, and only cache reads otherwise.
func (j *Jobs) Sync(ctx context.Context, w Workload) error {
	revs := w.Revisions
	if revs == nil || revs.Update == nil {
		return nil
	}
	r := Rollout{InPlace: w.InPlace, UpdateRevision: revs.Update.Name, CurrentRevision: revs.Update.Name,
		Replicas: w.Replicas, Partition: w.Partition, MaxUnavailable: w.MaxUnavailable,
		Ignored: Ignored(w.Owner, revs.Update)}
	if revs.Current != nil {
		r.CurrentRevision = revs.Current.Name
	}
	t := Target{Owner: w.Owner, Kind: w.Kind, Selector: w.Selector, RevisionKey: pub.ControllerRevisionHashLabelKey,
		UpdateRevision: r.UpdateRevision}
	if r.CurrentRevision != r.UpdateRevision {
		for _, pod := range w.Pods {
			if revs.IsUpdated(pod) && podcondition.IsReady(pod) {
				r.UpdatedReady++
			}
		}
		cur, err := revs.Template(revs.Current)
		if err != nil {
			return fmt.Errorf("reading revision %s: %w", r.CurrentRevision, err)
		}
		r.NewImages = ChangedImages(&cur.Spec, &w.Template.Spec)
		r.MinUpdatedReady, t.Parallelism, t.TimeoutSeconds = Settings(w.Strategy, w.Owner.GetAnnotations())
		t.Images = r.NewImages
	}
	if err := j.Apply(ctx, Decide(r), t); err != nil {
		return fmt.Errorf("image pre-download: %w", err)
	}
	return nil
}
