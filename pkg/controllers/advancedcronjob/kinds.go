package advancedcronjob

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	batchlisters "k8s.io/client-go/listers/batch/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/typedkind"
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
		Kind: typedkind.Cached(typedkind.New[*batchv1.Job](batchv1.SchemeGroupVersion.WithKind("Job"), client.BatchV1().Jobs), lister.Jobs),
		build: func(acj *v1beta1.AdvancedCronJob, meta metav1.ObjectMeta) *batchv1.Job {
			return &batchv1.Job{ObjectMeta: meta, Spec: *acj.Spec.Template.JobTemplate.Spec.DeepCopy()}
		},
		outcome: jobOutcome,
	}
}

func broadcastJobKind(client kruiseclient.Interface, lister betalisters.BroadcastJobLister) kindOps[*v1beta1.BroadcastJob] {
	return kindOps[*v1beta1.BroadcastJob]{
		Kind: typedkind.Cached(typedkind.New[*v1beta1.BroadcastJob](v1beta1.SchemeGroupVersion.WithKind("BroadcastJob"),
			client.AppsV1beta1().BroadcastJobs), lister.BroadcastJobs),
		build: func(acj *v1beta1.AdvancedCronJob, meta metav1.ObjectMeta) *v1beta1.BroadcastJob {
			return &v1beta1.BroadcastJob{ObjectMeta: meta, Spec: *acj.Spec.Template.BroadcastJobTemplate.Spec.DeepCopy()}
		},
		outcome: broadcastJobOutcome,
	}
}

func imageListPullJobKind(client kruiseclient.Interface, lister alphalisters.ImageListPullJobLister) kindOps[*v1alpha1.ImageListPullJob] {
	return kindOps[*v1alpha1.ImageListPullJob]{
		Kind: typedkind.Cached(typedkind.New[*v1alpha1.ImageListPullJob](v1alpha1.SchemeGroupVersion.WithKind("ImageListPullJob"),
			client.AppsV1alpha1().ImageListPullJobs), lister.ImageListPullJobs),
		build: func(acj *v1beta1.AdvancedCronJob, meta metav1.ObjectMeta) *v1alpha1.ImageListPullJob {
			return &v1alpha1.ImageListPullJob{ObjectMeta: meta, Spec: *acj.Spec.Template.ImageListPullJobTemplate.Spec.DeepCopy()}
		},
		outcome: imageListPullJobOutcome,
	}
}
