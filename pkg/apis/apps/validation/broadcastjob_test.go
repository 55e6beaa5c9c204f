package validation

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// newBroadcastJob returns a valid, defaulted BroadcastJob whose pods never restart.
func newBroadcastJob(t *testing.T) *apps.BroadcastJob {
	t.Helper()
	template := podTemplate(nil)
	template.Spec.RestartPolicy = corev1.RestartPolicyNever
	v := &v1alpha1.BroadcastJob{
		ObjectMeta: metav1.ObjectMeta{Name: "bcj-demo", Namespace: "default", ResourceVersion: "1"},
		Spec:       v1alpha1.BroadcastJobSpec{Template: template},
	}
	v1alpha1.SetObjectDefaults_BroadcastJob(v)
	out := &apps.BroadcastJob{}
	toInternal(t, v, out)
	return out
}

func TestValidateBroadcastJob(t *testing.T) {
	const cp, fp = "spec.completionPolicy", "spec.failurePolicy"
	cases := []struct {
		name   string
		mutate func(j *apps.BroadcastJob)
		want   []wantErr
	}{
		{name: "defaulted minimal BroadcastJob", mutate: func(*apps.BroadcastJob) {}},
		{name: "no namespace", mutate: func(j *apps.BroadcastJob) { j.Namespace = "" },
			want: []wantErr{required("metadata.namespace")}},
		{name: "longest name its pods can be labelled with", mutate: func(j *apps.BroadcastJob) { j.Name = strings.Repeat("a", 63) }},
		{name: "name too long for its pods' label", mutate: func(j *apps.BroadcastJob) { j.Name = strings.Repeat("a", 64) },
			want: []wantErr{invalid("metadata.name", "must be no more than 63 characters: its pods are labelled broadcastjob-name=<name>")}},

		// template
		{name: "restartPolicy OnFailure", mutate: func(j *apps.BroadcastJob) {
			j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
		}},
		{name: "restartPolicy Always (what defaulting sets when unset)", mutate: func(j *apps.BroadcastJob) {
			j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways
		},
			want: []wantErr{notSupported("spec.template.spec.restartPolicy")}},
		{name: "activeDeadlineSeconds in the pod is a job pod's own deadline", mutate: func(j *apps.BroadcastJob) {
			j.Spec.Template.Spec.ActiveDeadlineSeconds = new(int64(60))
		}},
		{name: "container without image",
			mutate: func(j *apps.BroadcastJob) { j.Spec.Template.Spec.Containers[0].Image = "" },
			want:   []wantErr{required("spec.template.spec.containers[0].image")}},
		{name: "no containers",
			mutate: func(j *apps.BroadcastJob) { j.Spec.Template.Spec.Containers = nil },
			want:   []wantErr{required("spec.template.spec.containers")}},

		// parallelism
		{name: "parallelism 0 (nothing runs)", mutate: func(j *apps.BroadcastJob) { j.Spec.Parallelism = intOrStr(0) }},
		{name: "parallelism percent", mutate: func(j *apps.BroadcastJob) { j.Spec.Parallelism = strOrStr("30%") }},
		{name: "parallelism -1", mutate: func(j *apps.BroadcastJob) { j.Spec.Parallelism = intOrStr(-1) },
			want: []wantErr{invalid("spec.parallelism")}},
		{name: "parallelism not a percent", mutate: func(j *apps.BroadcastJob) { j.Spec.Parallelism = strOrStr("all") },
			want: []wantErr{invalid("spec.parallelism")}},

		// completion policy
		{name: "Always with deadline and TTL", mutate: func(j *apps.BroadcastJob) {
			j.Spec.CompletionPolicy.ActiveDeadlineSeconds = new(int64(10))
			j.Spec.CompletionPolicy.TTLSecondsAfterFinished = int32p(30)
		}},
		{name: "Always with zero deadline and TTL", mutate: func(j *apps.BroadcastJob) {
			j.Spec.CompletionPolicy.ActiveDeadlineSeconds = new(int64(0))
			j.Spec.CompletionPolicy.TTLSecondsAfterFinished = int32p(0)
		}},
		{name: "negative deadline and TTL", mutate: func(j *apps.BroadcastJob) {
			j.Spec.CompletionPolicy.ActiveDeadlineSeconds = new(int64(-1))
			j.Spec.CompletionPolicy.TTLSecondsAfterFinished = int32p(-1)
		},
			want: []wantErr{invalid(cp + ".activeDeadlineSeconds"), invalid(cp + ".ttlSecondsAfterFinished")}},
		{name: "Never", mutate: func(j *apps.BroadcastJob) { j.Spec.CompletionPolicy.Type = apps.Never }},
		{name: "Never with deadline and TTL", mutate: func(j *apps.BroadcastJob) {
			j.Spec.CompletionPolicy = apps.CompletionPolicy{Type: apps.Never,
				ActiveDeadlineSeconds: new(int64(10)), TTLSecondsAfterFinished: int32p(30)}
		},
			want: []wantErr{forbidden(cp + ".activeDeadlineSeconds"), forbidden(cp + ".ttlSecondsAfterFinished")}},
		{name: "unknown completion type", mutate: func(j *apps.BroadcastJob) { j.Spec.CompletionPolicy.Type = "Sometimes" },
			want: []wantErr{notSupported(cp + ".type")}},

		// failure policy
		{name: "Continue", mutate: func(j *apps.BroadcastJob) { j.Spec.FailurePolicy.Type = apps.FailurePolicyTypeContinue }},
		{name: "Pause with restart limit", mutate: func(j *apps.BroadcastJob) {
			j.Spec.FailurePolicy = apps.FailurePolicy{Type: apps.FailurePolicyTypePause, RestartLimit: 3}
		}},
		{name: "unknown failure type", mutate: func(j *apps.BroadcastJob) { j.Spec.FailurePolicy.Type = "FastFailed" },
			want: []wantErr{notSupported(fp + ".type")}},
		{name: "negative restart limit", mutate: func(j *apps.BroadcastJob) { j.Spec.FailurePolicy.RestartLimit = -1 },
			want: []wantErr{invalid(fp + ".restartLimit")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j := newBroadcastJob(t)
			tc.mutate(j)
			expectErrors(t, ValidateBroadcastJob(j), tc.want...)
		})
	}
}

func TestValidateBroadcastJobUpdate(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(j *apps.BroadcastJob)
		want   []wantErr
	}{
		{name: "pause", mutate: func(j *apps.BroadcastJob) { j.Spec.Paused = true }},
		{name: "parallelism", mutate: func(j *apps.BroadcastJob) { j.Spec.Parallelism = intOrStr(2) }},
		{name: "restartPolicy Always", mutate: func(j *apps.BroadcastJob) {
			j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways
		},
			want: []wantErr{notSupported("spec.template.spec.restartPolicy")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := newBroadcastJob(t)
			j := old.DeepCopy()
			tc.mutate(j)
			expectErrors(t, ValidateBroadcastJobUpdate(j, old), tc.want...)
		})
	}
}

func TestValidateBroadcastJobStatusUpdate(t *testing.T) {
	old := newBroadcastJob(t)
	j := old.DeepCopy()
	j.Status = apps.BroadcastJobStatus{Desired: 3, Active: 1, Succeeded: 1, Failed: 1, Phase: apps.PhaseRunning}
	expectErrors(t, ValidateBroadcastJobStatusUpdate(j, old))
	j.Status.Active = -1
	expectErrors(t, ValidateBroadcastJobStatusUpdate(j, old), invalid("status.active"))
}
