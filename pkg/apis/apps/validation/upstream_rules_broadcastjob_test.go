package validation

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// TestUpstreamRulesBroadcastJob: pkg/webhook/broadcastjob/validating/
// broadcastjob_create_update_handler.go, which checks creates and updates alike. Both
// served versions share these paths.
func TestUpstreamRulesBroadcastJob(t *testing.T) {
	const v = "broadcastjob/validating/broadcastjob_create_update_handler.go:"
	type bj = *apps.BroadcastJob
	never := func(j bj) { j.Spec.CompletionPolicy.Type = apps.Never }
	cases := []upstreamWorkloadRule[bj]{
		{upstream: v + "validateBroadcastJobName: letters, digits and '-' (no '.')",
			mutate: func(j bj) { j.Name = "bcj.v1" }, want: []wantErr{invalid("metadata.name", "no '.'")}},
		{upstream: v + "validateBroadcastJobName: at most 63 characters",
			mutate: func(j bj) { j.Name = strings.Repeat("b", 64) }, want: []wantErr{invalid("metadata.name", "63")}},
		{upstream: v + "validateBroadcastJobSpec: no ttlSecondsAfterFinished with completionPolicy Never",
			mutate: func(j bj) { never(j); j.Spec.CompletionPolicy.TTLSecondsAfterFinished = int32p(30) },
			want:   []wantErr{forbidden("spec.completionPolicy.ttlSecondsAfterFinished")}},
		{upstream: v + "validateBroadcastJobSpec: no activeDeadlineSeconds with completionPolicy Never",
			mutate: func(j bj) { never(j); j.Spec.CompletionPolicy.ActiveDeadlineSeconds = new(int64(30)) },
			want:   []wantErr{forbidden("spec.completionPolicy.activeDeadlineSeconds")}},
		{upstream: v + "validateBroadcastJobSpec: restartPolicy Never or OnFailure",
			mutate: func(j bj) { j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways },
			want:   []wantErr{notSupported("spec.template.spec.restartPolicy")}},
		{upstream: v + "validateBroadcastJobSpec: no broadcastjob-name pod label",
			mutate: func(j bj) { j.Spec.Template.Labels = map[string]string{"broadcastjob-name": "other"} },
			want:   []wantErr{forbidden("spec.template.metadata.labels[broadcastjob-name]")}},
		{upstream: v + "validateBroadcastJobSpec: no broadcastjob-controller-uid pod label",
			mutate: func(j bj) { j.Spec.Template.Labels = map[string]string{"broadcastjob-controller-uid": "1234"} },
			want:   []wantErr{forbidden("spec.template.metadata.labels[broadcastjob-controller-uid]")}},
		{upstream: v + "validateBroadcastJobSpec: template is a valid pod template (ValidatePodTemplateSpec)",
			mutate: func(j bj) { j.Spec.Template.Spec.Containers[0].Image = "" },
			want:   []wantErr{required("spec.template.spec.containers[0].image")}},

		// update: the same spec rules
		{upstream: v + "Handle (update): no ttlSecondsAfterFinished with completionPolicy Never", old: never,
			mutate: func(j bj) { j.Spec.CompletionPolicy.TTLSecondsAfterFinished = int32p(30) },
			want:   []wantErr{forbidden("spec.completionPolicy.ttlSecondsAfterFinished")}},
		{upstream: v + "Handle (update): no broadcastjob-name pod label", old: storedAsIs[bj],
			mutate: func(j bj) { j.Spec.Template.Labels = map[string]string{"broadcastjob-name": "other"} },
			want:   []wantErr{forbidden("spec.template.metadata.labels[broadcastjob-name]")}},
	}
	runUpstreamWorkloadRules(t, workloadRuleKind[bj]{
		fresh: newBroadcastJob, deepCopy: func(j bj) bj { return j.DeepCopy() },
		create: ValidateBroadcastJob, update: ValidateBroadcastJobUpdate,
	}, cases)
}

// TestBroadcastJobPodLabelsRatchet: a job stored with a pod label the controller sets
// (before the rule) stays updatable while the label keeps its value.
func TestBroadcastJobPodLabelsRatchet(t *testing.T) {
	old := newBroadcastJob(t)
	old.Spec.Template.Labels = map[string]string{"broadcastjob-name": "bcj-demo"}
	job := old.DeepCopy()
	job.Spec.Parallelism = intOrStr(2)
	expectErrors(t, ValidateBroadcastJobUpdate(job, old))
	job.Spec.Template.Labels["broadcastjob-name"] = "other"
	expectErrors(t, ValidateBroadcastJobUpdate(job, old), forbidden("spec.template.metadata.labels[broadcastjob-name]"))
}
