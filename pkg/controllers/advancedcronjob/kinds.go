package advancedcronjob

import (
	"context"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	batchlisters "k8s.io/client-go/listers/batch/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	alphalisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1alpha1"
	betalisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
)

// jobOutcome reads a batch/v1 Job's terminal condition.
func jobOutcome(j *batchv1.Job) Outcome {
	for _, c := range j.Status.Conditions {
		if c.Status != corev1.ConditionTrue {
			continue
		}
		switch c.Type {
		case batchv1.JobComplete:
			return Succeeded
		case batchv1.JobFailed:
			return Failed
		}
	}
	return Running
}

// broadcastJobOutcome reads a BroadcastJob's Complete or Failed condition.
func broadcastJobOutcome(j *v1beta1.BroadcastJob) Outcome {
	for _, c := range j.Status.Conditions {
		if c.Status != corev1.ConditionTrue {
			continue
		}
		switch c.Type {
		case v1beta1.JobComplete:
			return Succeeded
		case v1beta1.JobFailed:
			return Failed
		}
	}
	return Running
}

// imageListPullJobOutcome: an ImageListPullJob has no conditions; it ended when it has
// a completion time, and succeeded when every image was pulled on every node (as
// OpenKruise judges it).
func imageListPullJobOutcome(j *v1alpha1.ImageListPullJob) Outcome {
	switch {
	case j.Status.CompletionTime == nil:
		return Running
	case j.Status.Succeeded == j.Status.Desired:
		return Succeeded
	default:
		return Failed
	}
}

func jobKind(client kubernetes.Interface, lister batchlisters.JobLister) kindOps[*batchv1.Job] {
	return kindOps[*batchv1.Job]{
		gvk:        batchv1.SchemeGroupVersion.WithKind("Job"),
		listCached: func(ns string) ([]*batchv1.Job, error) { return lister.Jobs(ns).List(labels.Everything()) },
		getLive: func(ctx context.Context, ns, name string) (*batchv1.Job, error) {
			return client.BatchV1().Jobs(ns).Get(ctx, name, metav1.GetOptions{})
		},
		createObj: func(ctx context.Context, j *batchv1.Job) (*batchv1.Job, error) {
			return client.BatchV1().Jobs(j.Namespace).Create(ctx, j, metav1.CreateOptions{FieldManager: ControllerName})
		},
		deleteObj: func(ctx context.Context, ns, name string, opts metav1.DeleteOptions) error {
			return client.BatchV1().Jobs(ns).Delete(ctx, name, opts)
		},
		build: func(acj *v1beta1.AdvancedCronJob, meta metav1.ObjectMeta) *batchv1.Job {
			return &batchv1.Job{ObjectMeta: meta, Spec: *acj.Spec.Template.JobTemplate.Spec.DeepCopy()}
		},
		outcome: jobOutcome,
	}
}

func broadcastJobKind(client kruiseclient.Interface, lister betalisters.BroadcastJobLister) kindOps[*v1beta1.BroadcastJob] {
	return kindOps[*v1beta1.BroadcastJob]{
		gvk: v1beta1.SchemeGroupVersion.WithKind("BroadcastJob"),
		listCached: func(ns string) ([]*v1beta1.BroadcastJob, error) {
			return lister.BroadcastJobs(ns).List(labels.Everything())
		},
		getLive: func(ctx context.Context, ns, name string) (*v1beta1.BroadcastJob, error) {
			return client.AppsV1beta1().BroadcastJobs(ns).Get(ctx, name, metav1.GetOptions{})
		},
		createObj: func(ctx context.Context, j *v1beta1.BroadcastJob) (*v1beta1.BroadcastJob, error) {
			return client.AppsV1beta1().BroadcastJobs(j.Namespace).Create(ctx, j, metav1.CreateOptions{FieldManager: ControllerName})
		},
		deleteObj: func(ctx context.Context, ns, name string, opts metav1.DeleteOptions) error {
			return client.AppsV1beta1().BroadcastJobs(ns).Delete(ctx, name, opts)
		},
		build: func(acj *v1beta1.AdvancedCronJob, meta metav1.ObjectMeta) *v1beta1.BroadcastJob {
			return &v1beta1.BroadcastJob{ObjectMeta: meta, Spec: *acj.Spec.Template.BroadcastJobTemplate.Spec.DeepCopy()}
		},
		outcome: broadcastJobOutcome,
	}
}

func imageListPullJobKind(client kruiseclient.Interface, lister alphalisters.ImageListPullJobLister) kindOps[*v1alpha1.ImageListPullJob] {
	return kindOps[*v1alpha1.ImageListPullJob]{
		gvk: v1alpha1.SchemeGroupVersion.WithKind("ImageListPullJob"),
		listCached: func(ns string) ([]*v1alpha1.ImageListPullJob, error) {
			return lister.ImageListPullJobs(ns).List(labels.Everything())
		},
		getLive: func(ctx context.Context, ns, name string) (*v1alpha1.ImageListPullJob, error) {
			return client.AppsV1alpha1().ImageListPullJobs(ns).Get(ctx, name, metav1.GetOptions{})
		},
		createObj: func(ctx context.Context, j *v1alpha1.ImageListPullJob) (*v1alpha1.ImageListPullJob, error) {
			return client.AppsV1alpha1().ImageListPullJobs(j.Namespace).Create(ctx, j, metav1.CreateOptions{FieldManager: ControllerName})
		},
		deleteObj: func(ctx context.Context, ns, name string, opts metav1.DeleteOptions) error {
			return client.AppsV1alpha1().ImageListPullJobs(ns).Delete(ctx, name, opts)
		},
		build: func(acj *v1beta1.AdvancedCronJob, meta metav1.ObjectMeta) *v1alpha1.ImageListPullJob {
			return &v1alpha1.ImageListPullJob{ObjectMeta: meta, Spec: *acj.Spec.Template.ImageListPullJobTemplate.Spec.DeepCopy()}
		},
		outcome: imageListPullJobOutcome,
	}
}
