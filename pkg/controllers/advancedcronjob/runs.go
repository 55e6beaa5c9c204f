package advancedcronjob

import (
	"context"
	"fmt"
	"maps"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/typedkind"
)

// ScheduledAtAnnotation records on a run the start it was created for (RFC 3339, in
// the schedule's zone), as OpenKruise writes it.
const ScheduledAtAnnotation = "apps.kruise.io/scheduled-at"

// ownerKind is what the runs' owner references carry: v1alpha1, as OpenKruise writes
// them and as the documented manifests are written.
var ownerKind = v1alpha1.SchemeGroupVersion.WithKind("AdvancedCronJob")

// runKind reads, creates and deletes the runs of one template kind.
type runKind interface {
	// list is the runs the AdvancedCronJob controls, from the informer's cache.
	list(acj *v1beta1.AdvancedCronJob) ([]Run, error)
	// get reads one run from the API server (nil: it does not exist).
	get(ctx context.Context, ns, name string) (*Run, error)
	// create makes the run of a start; a run of that name that the AdvancedCronJob
	// already controls is returned too, with created false.
	create(ctx context.Context, acj *v1beta1.AdvancedCronJob, name string, scheduled time.Time) (run Run, created bool, err error)
	// delete deletes a run and, in the background, what it owns (a Job's pods);
	// deleted is false when it was gone already.
	delete(ctx context.Context, run Run) (deleted bool, err error)
}

// kindOps implements runKind for one kind from its typed client and lister and the
// kind's own rules.
type kindOps[T typedkind.Object] struct {
	typedkind.Kind[T]
	// build is the run of acj's template with meta.
	build func(acj *v1beta1.AdvancedCronJob, meta metav1.ObjectMeta) T
	// outcome says whether and how the run ended.
	outcome func(T) Outcome
}

func (k kindOps[T]) run(obj T) Run {
	r := Run{
		Ref: corev1.ObjectReference{APIVersion: k.GVK.GroupVersion().String(), Kind: k.GVK.Kind,
			Namespace: obj.GetNamespace(), Name: obj.GetName(), UID: obj.GetUID()},
		Scheduled: obj.GetCreationTimestamp().Time,
		Outcome:   k.outcome(obj),
		Deleting:  obj.GetDeletionTimestamp() != nil,
	}
	if t, err := time.Parse(time.RFC3339, obj.GetAnnotations()[ScheduledAtAnnotation]); err == nil {
		r.Scheduled = t
	}
	return r
}

func (k kindOps[T]) list(acj *v1beta1.AdvancedCronJob) ([]Run, error) {
	objs, err := k.Lister(acj.Namespace).List(labels.Everything())
	if err != nil {
		return nil, fmt.Errorf("listing %ss: %w", k.GVK.Kind, err)
	}
	var out []Run
	for _, o := range objs {
		if ref := metav1.GetControllerOfNoCopy(o); ref != nil && ref.UID == acj.UID {
			out = append(out, k.run(o))
		}
	}
	return out, nil
}

func (k kindOps[T]) get(ctx context.Context, ns, name string) (*Run, error) {
	obj, err := k.Client(ns).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("getting %s %s/%s: %w", k.GVK.Kind, ns, name, err)
	}
	r := k.run(obj)
	return &r, nil
}

func (k kindOps[T]) create(ctx context.Context, acj *v1beta1.AdvancedCronJob, name string, scheduled time.Time) (Run, bool, error) {
	labels, annotations := templateMeta(acj)
	meta := metav1.ObjectMeta{
		Name:            name,
		Namespace:       acj.Namespace,
		Labels:          labels,
		Annotations:     annotations,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(acj, ownerKind)},
	}
	meta.Annotations[ScheduledAtAnnotation] = scheduled.In(Location(acj.Spec.TimeZone)).Format(time.RFC3339)
	created, err := k.Client(acj.Namespace).Create(ctx, k.build(acj, meta), metav1.CreateOptions{FieldManager: ControllerName})
	if apierrors.IsAlreadyExists(err) {
		existing, getErr := k.Client(acj.Namespace).Get(ctx, name, metav1.GetOptions{})
		if getErr != nil {
			return Run{}, false, fmt.Errorf("creating %s %s: %w; reading it: %w", k.GVK.Kind, name, err, getErr)
		}
		if ref := metav1.GetControllerOfNoCopy(existing); ref == nil || ref.UID != acj.UID {
			return Run{}, false, fmt.Errorf("creating %s %s: %w, and not controlled by this AdvancedCronJob", k.GVK.Kind, name, err)
		}
		return k.run(existing), false, nil
	}
	if err != nil {
		return Run{}, false, fmt.Errorf("creating %s %s: %w", k.GVK.Kind, name, err)
	}
	return k.run(created), true, nil
}

func (k kindOps[T]) delete(ctx context.Context, run Run) (bool, error) {
	background := metav1.DeletePropagationBackground
	err := k.Client(run.Ref.Namespace).Delete(ctx, run.Ref.Name, metav1.DeleteOptions{
		Preconditions: &metav1.Preconditions{UID: &run.Ref.UID}, PropagationPolicy: &background})
	switch {
	case apierrors.IsNotFound(err):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("deleting %s %s/%s: %w", k.GVK.Kind, run.Ref.Namespace, run.Ref.Name, err)
	}
	return true, nil
}

// templateKind is the kind of run the spec creates ("" with no template, which
// validation refuses).
func templateKind(spec *v1beta1.AdvancedCronJobSpec) v1beta1.TemplateKind {
	switch t := spec.Template; {
	case t.JobTemplate != nil:
		return v1beta1.JobTemplate
	case t.BroadcastJobTemplate != nil:
		return v1beta1.BroadcastJobTemplate
	case t.ImageListPullJobTemplate != nil:
		return v1beta1.ImageListPullJobTemplate
	}
	return ""
}

// templateMeta are copies of the labels and annotations of the spec's template.
func templateMeta(acj *v1beta1.AdvancedCronJob) (labels, annotations map[string]string) {
	var meta *metav1.ObjectMeta
	switch t := acj.Spec.Template; {
	case t.JobTemplate != nil:
		meta = &t.JobTemplate.ObjectMeta
	case t.BroadcastJobTemplate != nil:
		meta = &t.BroadcastJobTemplate.ObjectMeta
	case t.ImageListPullJobTemplate != nil:
		meta = &t.ImageListPullJobTemplate.ObjectMeta
	}
	labels, annotations = map[string]string{}, map[string]string{}
	if meta != nil {
		maps.Copy(labels, meta.Labels)
		maps.Copy(annotations, meta.Annotations)
	}
	return labels, annotations
}
