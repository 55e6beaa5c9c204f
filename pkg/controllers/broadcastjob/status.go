package broadcastjob

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
)

// finishedCondition is the Complete or Failed condition a job carries ("": none).
func finishedCondition(job *v1beta1.BroadcastJob) v1beta1.JobConditionType {
	for _, cond := range job.Status.Conditions {
		if (cond.Type == v1beta1.JobComplete || cond.Type == v1beta1.JobFailed) && cond.Status == corev1.ConditionTrue {
			return cond.Type
		}
	}
	return ""
}

// computeStatus is the job's status after plan: its counts and phase, the start
// time, and, when it finishes now, its condition and completion time.
func computeStatus(job *v1beta1.BroadcastJob, plan Plan, start *metav1.Time, now time.Time) v1beta1.BroadcastJobStatus {
	s := v1beta1.BroadcastJobStatus{
		Conditions:     job.Status.Conditions,
		StartTime:      start,
		CompletionTime: job.Status.CompletionTime,
		Desired:        plan.Desired,
		Active:         plan.Active,
		Succeeded:      plan.Succeeded,
		Failed:         plan.Failed,
		Phase:          plan.Phase,
	}
	if f := plan.Finish; f != nil {
		t := metav1.NewTime(now)
		s.Conditions = append(append([]v1beta1.JobCondition(nil), s.Conditions...), v1beta1.JobCondition{
			Type: f.Type, Status: corev1.ConditionTrue, LastProbeTime: t, LastTransitionTime: t, Reason: f.Reason, Message: f.Message,
		})
		s.CompletionTime = &t
	}
	return s
}

// updateStatus writes status once per sync, and only when it changed.
func (c *Controller) updateStatus(ctx context.Context, job *v1beta1.BroadcastJob, status v1beta1.BroadcastJobStatus) error {
	_, err := c.Status.Write(ctx, job, status, podworkload.Outcome{})
	return err
}
