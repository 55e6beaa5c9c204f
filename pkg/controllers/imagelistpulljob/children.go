package imagelistpulljob

import (
	"fmt"
	"hash/fnv"
	"sort"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

var listKind = v1alpha1.SchemeGroupVersion.WithKind("ImageListPullJob")

// ChildName is the name of the ImagePullJob that pulls image for the list: stable, so a
// stale cache can never make a second job for the same image.
func ChildName(list *v1alpha1.ImageListPullJob, image string) string {
	h := fnv.New32a()
	h.Write([]byte(image))
	return fmt.Sprintf("%s-%08x", list.Name, h.Sum32())
}

// NewChild is the ImagePullJob for one image of the list: the list's template, owned
// by the list (deleting the list deletes it). The list's TTL is the list's alone: a child
// deleted early would take its result with it.
func NewChild(list *v1alpha1.ImageListPullJob, image string) *v1alpha1.ImagePullJob {
	tmpl := list.Spec.ImagePullJobTemplate.DeepCopy()
	tmpl.CompletionPolicy.TTLSecondsAfterFinished = nil
	return &v1alpha1.ImagePullJob{
		ObjectMeta: metav1.ObjectMeta{
			Name:            ChildName(list, image),
			Namespace:       list.Namespace,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(list, listKind)},
		},
		Spec: v1alpha1.ImagePullJobSpec{Image: image, ImagePullJobTemplate: *tmpl},
	}
}

// Plan is what a sync does: children to create and delete, and the list's status.
type Plan struct {
	Create []string // images
	Delete []*v1alpha1.ImagePullJob
	Status v1alpha1.ImageListPullJobStatus
}

// Compute plans the list against its children (jobs it controls).
func Compute(list *v1alpha1.ImageListPullJob, children []*v1alpha1.ImagePullJob, now time.Time) Plan {
	st := list.Status.DeepCopy()
	if st.StartTime == nil {
		t := metav1.NewTime(now)
		st.StartTime = &t
	}
	byImage := map[string]*v1alpha1.ImagePullJob{}
	wanted := map[string]bool{}
	for _, img := range list.Spec.Images {
		wanted[img] = true
	}
	plan := Plan{}
	for _, c := range children {
		if !wanted[c.Spec.Image] || byImage[c.Spec.Image] != nil {
			plan.Delete = append(plan.Delete, c)
			continue
		}
		byImage[c.Spec.Image] = c
	}
	st.Desired = int32(len(list.Spec.Images))
	st.Active, st.Completed, st.Succeeded, st.FailedImageStatuses = 0, 0, 0, nil
	for _, img := range list.Spec.Images {
		c := byImage[img]
		switch {
		case c == nil:
			plan.Create = append(plan.Create, img)
			st.Active++
		case c.Status.CompletionTime == nil:
			st.Active++
		default:
			st.Completed++
			if c.Status.Desired == c.Status.Succeeded {
				st.Succeeded++
			}
		}
		if c != nil && c.Status.Failed > 0 {
			st.FailedImageStatuses = append(st.FailedImageStatuses, v1alpha1.FailedImageStatus{
				ImagePullJob: c.Name, Name: img, Message: c.Status.Message})
		}
	}
	sort.Slice(st.FailedImageStatuses, func(i, j int) bool { return st.FailedImageStatuses[i].Name < st.FailedImageStatuses[j].Name })
	if st.CompletionTime == nil && list.Spec.CompletionPolicy.Type != v1alpha1.Never && st.Completed == st.Desired {
		t := metav1.NewTime(now)
		st.CompletionTime = &t
	}
	plan.Status = *st
	return plan
}
