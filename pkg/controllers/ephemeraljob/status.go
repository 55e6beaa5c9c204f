package ephemeraljob

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// computeStatus is the job's status as the target pods show it at now, by OpenKruise's
// rules: the counts; phase Waiting (no target, or containers not started), Running,
// Succeeded or Failed once every target pod's containers have ended, Paused, Error
// (no containers), Unknown otherwise; failed when the deadline passes while active.
// Times it sets are to the second (what the API stores), and a condition is only
// rewritten when it changes, so computing it again from the same pods gives the same
// status.
func computeStatus(job *v1alpha1.EphemeralJob, targets []*corev1.Pod, now time.Time) *v1alpha1.EphemeralJobStatus {
	st := job.Status.DeepCopy()
	stamp := metav1.NewTime(now).Rfc3339Copy()
	if st.StartTime == nil {
		st.StartTime = &stamp
	}
	if len(st.Conditions) == 0 {
		st.Conditions = []v1alpha1.EphemeralJobCondition{{Type: v1alpha1.EJobInitialized, Status: corev1.ConditionTrue,
			LastProbeTime: stamp, LastTransitionTime: stamp, Reason: string(v1alpha1.EJobInitialized)}}
	}

	st.Matches, st.Running, st.Succeeded, st.Failed, st.Waiting = int32(len(targets)), 0, 0, 0, 0
	for _, p := range targets {
		v := podState(job, p)
		if !v.injected {
			st.Waiting++
			continue
		}
		switch v.state {
		case stateSucceeded:
			st.Succeeded++
		case stateFailed:
			st.Failed++
		case stateRunning:
			st.Running++
		case stateWaiting:
			st.Waiting++
		}
	}

	set := func(t v1alpha1.EphemeralJobConditionType, status corev1.ConditionStatus, reason, message string) {
		st.Conditions = setCondition(st.Conditions, v1alpha1.EphemeralJobCondition{Type: t, Status: status, Reason: reason,
			Message: message, LastProbeTime: stamp, LastTransitionTime: stamp})
	}
	if st.Failed > 0 {
		set(v1alpha1.EJobFailed, corev1.ConditionTrue, "ContainerFailed",
			fmt.Sprintf("%d/%d pods have a failed ephemeral container", st.Failed, st.Matches))
	}
	if st.Matches > 0 && hasCondition(st.Conditions, v1alpha1.EJobMatchedEmpty) {
		// OpenKruise leaves MatchedEmpty True once set; pods that matched later make it false.
		set(v1alpha1.EJobMatchedEmpty, corev1.ConditionFalse, "Matched", fmt.Sprintf("job matches %d pods", st.Matches))
	}

	var completed *metav1.Time
	switch {
	case st.Matches == 0:
		st.Phase = v1alpha1.EphemeralJobWaiting
		set(v1alpha1.EJobMatchedEmpty, corev1.ConditionTrue, "MatchEmpty", "job match no pods")
	case st.Running > 0:
		st.Phase = v1alpha1.EphemeralJobRunning
	case st.Waiting > 0:
		st.Phase = v1alpha1.EphemeralJobWaiting
	case st.Succeeded+st.Failed == st.Matches:
		completed = &stamp
		if st.Failed > 0 {
			st.Phase = v1alpha1.EphemeralJobFailed
			set(v1alpha1.EJobFailed, corev1.ConditionTrue, "JobFailed",
				fmt.Sprintf("job failed to run all tasks, %d/%d pods failed", st.Failed, st.Matches))
		} else {
			st.Phase = v1alpha1.EphemeralJobSucceeded
			set(v1alpha1.EJobSucceeded, corev1.ConditionTrue, "JobSucceeded", "job success to run all tasks")
		}
	default:
		st.Phase = v1alpha1.EphemeralJobUnknown
	}
	if job.Spec.Paused && completed == nil {
		st.Phase = v1alpha1.EphemeralJobPause
	}
	switch st.Phase {
	case v1alpha1.EphemeralJobWaiting, v1alpha1.EphemeralJobUnknown, v1alpha1.EphemeralJobRunning:
		if pastDeadline(job.Spec.ActiveDeadlineSeconds, st.StartTime, now) {
			completed = &stamp
			st.Phase = v1alpha1.EphemeralJobFailed
			set(v1alpha1.EJobFailed, corev1.ConditionTrue, "DeadlineExceeded",
				fmt.Sprintf("EphemeralJob %s/%s was active longer than specified deadline", job.Namespace, job.Name))
		}
	}
	if len(job.Spec.Template.EphemeralContainers) == 0 {
		st.Phase = v1alpha1.EphemeralJobError
		set(v1alpha1.EJobError, corev1.ConditionTrue, "Error", "job spec invalid fields.")
	}
	st.CompletionTime = completed
	return st
}

func pastDeadline(deadline *int64, start *metav1.Time, now time.Time) bool {
	return deadline != nil && start != nil && !now.Before(start.Add(time.Duration(*deadline)*time.Second))
}

func hasCondition(conds []v1alpha1.EphemeralJobCondition, t v1alpha1.EphemeralJobConditionType) bool {
	for _, c := range conds {
		if c.Type == t {
			return true
		}
	}
	return false
}

// setCondition puts c in conds by type; an existing condition that says the same
// (status, reason, message) keeps its times, so an unchanged state writes nothing.
func setCondition(conds []v1alpha1.EphemeralJobCondition, c v1alpha1.EphemeralJobCondition) []v1alpha1.EphemeralJobCondition {
	for i := range conds {
		if conds[i].Type != c.Type {
			continue
		}
		if conds[i].Status == c.Status && conds[i].Reason == c.Reason && conds[i].Message == c.Message {
			return conds
		}
		if conds[i].Status == c.Status {
			c.LastTransitionTime = conds[i].LastTransitionTime
		}
		conds[i] = c
		return conds
	}
	return append(conds, c)
}

func statusEqual(a, b *v1alpha1.EphemeralJobStatus) bool { return apiequality.Semantic.DeepEqual(a, b) }
