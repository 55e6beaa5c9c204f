package advancedcronjob

import (
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

func TestOutcomes(t *testing.T) {
	job := func(conds ...batchv1.JobCondition) *batchv1.Job {
		return &batchv1.Job{Status: batchv1.JobStatus{Conditions: conds}}
	}
	bcj := func(conds ...v1beta1.JobCondition) *v1beta1.BroadcastJob {
		return &v1beta1.BroadcastJob{Status: v1beta1.BroadcastJobStatus{Conditions: conds}}
	}
	ilpj := func(done bool, desired, succeeded int32) *v1alpha1.ImageListPullJob {
		j := &v1alpha1.ImageListPullJob{Status: v1alpha1.ImageListPullJobStatus{Desired: desired, Succeeded: succeeded}}
		if done {
			j.Status.CompletionTime = &metav1.Time{}
		}
		return j
	}
	tests := []struct {
		name string
		got  Outcome
		want Outcome
	}{
		{"Job without conditions", jobOutcome(job()), Running},
		{"Job on its way to success (SuccessCriteriaMet only)", jobOutcome(job(batchv1.JobCondition{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue})), Running},
		{"Job Complete", jobOutcome(job(batchv1.JobCondition{Type: batchv1.JobComplete, Status: corev1.ConditionTrue})), Succeeded},
		{"Job Failed", jobOutcome(job(batchv1.JobCondition{Type: batchv1.JobFailed, Status: corev1.ConditionTrue})), Failed},
		{"Job Complete False", jobOutcome(job(batchv1.JobCondition{Type: batchv1.JobComplete, Status: corev1.ConditionFalse})), Running},
		{"BroadcastJob running", broadcastJobOutcome(bcj()), Running},
		{"BroadcastJob Complete", broadcastJobOutcome(bcj(v1beta1.JobCondition{Type: v1beta1.JobComplete, Status: corev1.ConditionTrue})), Succeeded},
		{"BroadcastJob Failed", broadcastJobOutcome(bcj(v1beta1.JobCondition{Type: v1beta1.JobFailed, Status: corev1.ConditionTrue})), Failed},
		{"ImageListPullJob pulling", imageListPullJobOutcome(ilpj(false, 2, 1)), Running},
		{"ImageListPullJob every image pulled", imageListPullJobOutcome(ilpj(true, 2, 2)), Succeeded},
		{"ImageListPullJob an image failed", imageListPullJobOutcome(ilpj(true, 2, 1)), Failed},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}
