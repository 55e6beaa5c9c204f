package revision

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/kubernetes/pkg/controller/history"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// DefaultHistoryLimit is revisionHistoryLimit when a workload leaves it unset.
const DefaultHistoryLimit = 10

// Workload is what a pod-owning workload's sync knows about its revisions.
type Workload struct {
	Owner
	// Selector selects the workload's revisions (its pod selector).
	Selector *metav1.LabelSelector
	// Pods are the pods it owns: the revisions they run are never pruned.
	Pods []*corev1.Pod
	// CurrentRevision is status.currentRevision (also never pruned).
	CurrentRevision string
	// RevisionHistoryLimit is spec.revisionHistoryLimit (nil: DefaultHistoryLimit).
	RevisionHistoryLimit *int32
}

// WorkloadResult is Result plus the current revision: status.currentRevision while it
// still exists, else the update revision.
type WorkloadResult struct {
	Result
	Current *appsv1.ControllerRevision
}

// SyncWorkload lists a workload's revisions and syncs them (see Sync), keeping every
// revision its pods or its status still refer to.
func SyncWorkload(h history.Interface, w Workload) (*WorkloadResult, error) {
	selector, err := metav1.LabelSelectorAsSelector(w.Selector)
	if err != nil {
		return nil, fmt.Errorf("selector: %w", err)
	}
	revs, err := h.ListControllerRevisions(w.Object, w.Kind, selector)
	if err != nil {
		return nil, fmt.Errorf("listing revisions: %w", err)
	}
	inUse := sets.New[string]()
	for _, pod := range w.Pods {
		if hash := pod.Labels[pub.ControllerRevisionHashLabelKey]; hash != "" {
			inUse.Insert(hash)
		}
	}
	if w.CurrentRevision != "" {
		inUse.Insert(w.CurrentRevision)
	}
	o := w.Owner
	o.HistoryLimit = DefaultHistoryLimit
	if w.RevisionHistoryLimit != nil {
		o.HistoryLimit = *w.RevisionHistoryLimit
	}
	res, err := Sync(h, o, revs, inUse)
	if err != nil {
		return nil, fmt.Errorf("syncing revisions: %w", err)
	}
	out := &WorkloadResult{Result: *res, Current: res.Update}
	for _, r := range res.Revisions {
		if r.Name == w.CurrentRevision {
			out.Current = r
		}
	}
	return out, nil
}
