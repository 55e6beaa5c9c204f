package podworkload

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podindex"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/revision"
)

// Workload is what Load needs to know of one workload object.
type Workload struct {
	Object   Object
	Selector *metav1.LabelSelector
	Template *corev1.PodTemplateSpec
	// CollisionCount, CurrentRevision and RevisionHistoryLimit are read from the
	// workload's status and spec.
	CollisionCount       *int32
	CurrentRevision      string
	RevisionHistoryLimit *int32
	// Member narrows which selected pods are the workload's (StatefulSet: the pod's
	// name carries one of the set's ordinals); nil: every selected pod.
	Member func(*corev1.Pod) bool
	// NoRevisions: the workload keeps no ControllerRevisions (a job's template does
	// not roll out); Loaded.Revisions is then nil.
	NoRevisions bool
	// RevisionAnnotations, when set, are what is written on a revision when it is
	// created (revision.Owner.Annotations): called only then.
	RevisionAnnotations func() map[string]string
	// InPlaceAllowed, when set, vetoes in-place updates from one revision to another
	// beyond what the pod templates allow (Revisions.InPlaceSpec): such pods are
	// recreated.
	InPlaceAllowed func(from, to *appsv1.ControllerRevision) bool
}

// Loaded is what one sync reads of a workload.
type Loaded struct {
	// Pods are the pods the workload controls after claiming (see Claim), terminating
	// and finished ones included.
	Pods []*corev1.Pod
	// Revisions is nil for a workload without them (Workload.NoRevisions).
	Revisions *Revisions
}

// Load reads the workload's pods and revisions. It returns nil (no error) while the
// cache does not yet show this controller's own writes: acting on it could create or
// delete pods twice, or update a pod again.
func (c *Control) Load(ctx context.Context, w Workload) (*Loaded, error) {
	logger := klog.FromContext(ctx)
	if !c.Scale.Satisfied(key(w.Object)) {
		logger.V(4).Info("Waiting for pod creations/deletions to reach the cache")
		return nil, nil
	}
	owned, err := podindex.PodsOwnedBy(c.pods, w.Object.GetUID())
	if err != nil {
		return nil, err
	}
	for _, pod := range owned {
		if !c.Versions.Observe(pod) {
			logger.V(4).Info("Waiting for an updated pod to reach the cache", "pod", klog.KObj(pod))
			return nil, nil
		}
	}
	pods, err := c.Claim(ctx, w, owned)
	if err != nil {
		return nil, err
	}
	if w.NoRevisions {
		return &Loaded{Pods: pods}, nil
	}
	if c.history == nil {
		return nil, fmt.Errorf("%s keeps revisions but its Control was built without a revision informer", key(w.Object))
	}
	res, err := revision.SyncWorkload(c.history, revision.Workload{
		Owner: revision.Owner{Object: w.Object, Kind: c.Kind, Template: w.Template, CollisionCount: w.CollisionCount,
			Annotations: w.RevisionAnnotations},
		Selector: w.Selector, Pods: pods,
		CurrentRevision: w.CurrentRevision, RevisionHistoryLimit: w.RevisionHistoryLimit,
	})
	if err != nil {
		return nil, err
	}
	return &Loaded{Pods: pods, Revisions: &Revisions{
		Update: res.Update, Current: res.Current, All: res.Revisions, CollisionCount: res.CollisionCount,
		specs: inplaceupdate.SpecCache{Options: c.InPlace}, inPlaceAllowed: w.InPlaceAllowed,
	}}, nil
}
