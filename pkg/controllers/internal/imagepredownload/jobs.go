package imagepredownload

import (
	"context"
	"fmt"
	"hash/fnv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1alpha1"
)

const (
	// OwnerUIDLabel marks a pre-download job with the UID of its workload, so the
	// workload's jobs are found in the informer cache (no read per sync).
	OwnerUIDLabel = "apps.kruise.io/image-predownload-owner-uid"
	// RevisionLabel is the update revision the job pre-downloads for.
	RevisionLabel = "apps.kruise.io/image-predownload-revision"
	// defaultParallelism: one node pulls at a time unless the workload says otherwise.
	defaultParallelism = 1
)

// Jobs creates and removes a workload's pre-download ImagePullJobs.
type Jobs struct {
	Client kruiseclient.Interface
	Lister kruiselisters.ImagePullJobLister
}

// Target is the workload the jobs are for.
type Target struct {
	Owner metav1.Object
	Kind  schema.GroupVersionKind
	// Selector selects the workload's pods; RevisionKey is the pod label holding their
	// revision (the jobs select the pods whose revision is not UpdateRevision).
	Selector       *metav1.LabelSelector
	RevisionKey    string
	UpdateRevision string
	Images         []string
	Parallelism    *intstr.IntOrString
	TimeoutSeconds *int32
}

// Apply carries out an Action: Create makes the missing jobs of t.UpdateRevision and
// deletes the workload's jobs of other revisions; Cleanup deletes all its jobs.
func (j *Jobs) Apply(ctx context.Context, a Action, t Target) error {
	if a == Keep {
		return nil
	}
	existing, err := j.Lister.ImagePullJobs(t.Owner.GetNamespace()).List(labels.SelectorFromSet(labels.Set{OwnerUIDLabel: string(t.Owner.GetUID())}))
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, job := range existing {
		if a == Create && job.Labels[RevisionLabel] == t.UpdateRevision {
			have[job.Spec.Image] = true
			continue
		}
		err := j.Client.AppsV1alpha1().ImagePullJobs(job.Namespace).Delete(ctx, job.Name, metav1.DeleteOptions{
			Preconditions: &metav1.Preconditions{UID: &job.UID}})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("deleting image pre-download job %s: %w", job.Name, err)
		}
		klog.FromContext(ctx).V(2).Info("Deleted image pre-download job", "job", klog.KObj(job))
	}
	if a != Create {
		return nil
	}
	for _, image := range t.Images {
		if have[image] {
			continue
		}
		job := newJob(t, image)
		if _, err := j.Client.AppsV1alpha1().ImagePullJobs(job.Namespace).Create(ctx, job, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating image pre-download job for %s: %w", image, err)
		}
		klog.FromContext(ctx).V(2).Info("Created image pre-download job", "job", klog.KObj(job), "image", image)
	}
	return nil
}

// newJob is the job of one image: named after the workload, revision and image (so a
// second create of it is AlreadyExists, not a duplicate), owned by the workload,
// selecting the nodes of the workload's pods not at the update revision.
func newJob(t Target, image string) *v1alpha1.ImagePullJob {
	h := fnv.New32a()
	_, _ = h.Write([]byte(t.UpdateRevision + "/" + image))
	name := fmt.Sprintf("%s-%s", trim(t.Owner.GetName(), 40), rand.SafeEncodeString(fmt.Sprint(h.Sum32())))
	sel := t.Selector.DeepCopy()
	if sel == nil {
		sel = &metav1.LabelSelector{}
	}
	sel.MatchExpressions = append(sel.MatchExpressions, metav1.LabelSelectorRequirement{
		Key: t.RevisionKey, Operator: metav1.LabelSelectorOpNotIn, Values: []string{t.UpdateRevision}})
	parallelism := t.Parallelism
	if parallelism == nil {
		parallelism = ptr.To(intstr.FromInt32(defaultParallelism))
	}
	job := &v1alpha1.ImagePullJob{
		ObjectMeta: metav1.ObjectMeta{
			Name:            name,
			Namespace:       t.Owner.GetNamespace(),
			Labels:          map[string]string{OwnerUIDLabel: string(t.Owner.GetUID()), RevisionLabel: t.UpdateRevision},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(t.Owner, t.Kind)},
		},
		Spec: v1alpha1.ImagePullJobSpec{
			Image: image,
			ImagePullJobTemplate: v1alpha1.ImagePullJobTemplate{
				PodSelector:      &v1alpha1.ImagePullJobPodSelector{LabelSelector: *sel},
				Parallelism:      parallelism,
				CompletionPolicy: v1alpha1.CompletionPolicy{Type: v1alpha1.Always},
			},
		},
	}
	if t.TimeoutSeconds != nil {
		job.Spec.PullPolicy = &v1alpha1.PullPolicy{TimeoutSeconds: ptr.To(*t.TimeoutSeconds)}
	}
	return job
}

func trim(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
