package validation

import (
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/defaulting"
)

// TestUpstreamRulesAdvancedCronJob: pkg/webhook/advancedcronjob/validating/
// advancedcronjob_create_update_handler.go. Both served versions share these paths.
// Upstream reports a run template's pod errors at spec.template (its fldPath bug); we
// report them where the field is.
func TestUpstreamRulesAdvancedCronJob(t *testing.T) {
	const v = "advancedcronjob/validating/advancedcronjob_create_update_handler.go:"
	type acj = *apps.AdvancedCronJob
	jobTemplate := func(a acj) {
		a.Spec.Template = apps.CronJobTemplate{JobTemplate: &batchv1.JobTemplateSpec{
			Spec: batchv1.JobSpec{Template: jobPodTemplate()}}}
		defaulting.PodTemplate(&a.Spec.Template.JobTemplate.Spec.Template) // as the server defaults it
	}
	cases := []upstreamWorkloadRule[acj]{
		{upstream: v + "validateAdvancedCronJobName: letters, digits and '-' (no '.')",
			mutate: func(a acj) { a.Name = "acj.v1" }, want: []wantErr{invalid("metadata.name", "no '.'")}},
		{upstream: v + "validateAdvancedCronJobName: at most 63 characters",
			mutate: func(a acj) { a.Name = strings.Repeat("a", 64) }, want: []wantErr{invalid("metadata.name")}},
		{upstream: v + "validateAdvancedCronJobSpecSchedule: not empty",
			mutate: func(a acj) { a.Spec.Schedule = "" }, want: []wantErr{required("spec.schedule")}},
		{upstream: v + "validateAdvancedCronJobSpecSchedule: parses (cron.ParseStandard)",
			mutate: func(a acj) { a.Spec.Schedule = "every minute" }, want: []wantErr{invalid("spec.schedule")}},
		{upstream: v + "validateAdvancedCronJobSpecSchedule: not both TZ in schedule and timeZone",
			mutate: func(a acj) { a.Spec.Schedule = "TZ=UTC */1 * * * *"; a.Spec.TimeZone = new("UTC") },
			want:   []wantErr{invalid("spec.schedule")}},
		{upstream: v + "validateTimeZone: not empty",
			mutate: func(a acj) { a.Spec.TimeZone = new("") }, want: []wantErr{invalid("spec.timeZone")}},
		{upstream: v + "validateTimeZone: not Local",
			mutate: func(a acj) { a.Spec.TimeZone = new("Local") }, want: []wantErr{invalid("spec.timeZone")}},
		{upstream: v + "validateTimeZone: loads (time.LoadLocation)",
			mutate: func(a acj) { a.Spec.TimeZone = new("Mars/Olympus_Mons") }, want: []wantErr{invalid("spec.timeZone")}},
		{upstream: v + "validateJobTemplateSpec: a valid pod template (ValidatePodTemplateSpec)",
			mutate: func(a acj) { jobTemplate(a); a.Spec.Template.JobTemplate.Spec.Template.Spec.Containers[0].Image = "" },
			want:   []wantErr{required("spec.template.jobTemplate.spec.template.spec.containers[0].image")}},
		{upstream: v + "validateBroadcastJobTemplateSpec: a valid pod template (ValidatePodTemplateSpec)",
			mutate: func(a acj) { a.Spec.Template.BroadcastJobTemplate.Spec.Template.Spec.Containers[0].Image = "" },
			want:   []wantErr{required("spec.template.broadcastJobTemplate.spec.template.spec.containers[0].image")}},
		{upstream: v + "validateAdvancedCronJobSpecTemplate: one template",
			mutate: func(a acj) { a.Spec.Template = apps.CronJobTemplate{} }, want: []wantErr{required("spec.template")}},
		{upstream: v + "validateAdvancedCronJobSpecTemplate: only one template",
			mutate: func(a acj) {
				a.Spec.Template.JobTemplate = &batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: jobPodTemplate()}}
			}, want: []wantErr{invalid("spec.template", "exactly one")}},
		{upstream: v + "validateAdvancedCronJobSpec: startingDeadlineSeconds >= 0",
			mutate: func(a acj) { a.Spec.StartingDeadlineSeconds = new(int64(-1)) }, want: []wantErr{invalid("spec.startingDeadlineSeconds")}},
		{upstream: v + "validateAdvancedCronJobSpec: successfulJobsHistoryLimit >= 0",
			mutate: func(a acj) { a.Spec.SuccessfulJobsHistoryLimit = int32p(-1) }, want: []wantErr{invalid("spec.successfulJobsHistoryLimit")}},
		{upstream: v + "validateAdvancedCronJobSpec: failedJobsHistoryLimit >= 0",
			mutate: func(a acj) { a.Spec.FailedJobsHistoryLimit = int32p(-1) }, want: []wantErr{invalid("spec.failedJobsHistoryLimit")}},

		// update: the spec rules again
		{upstream: v + "validateAdvancedCronJobUpdate: metadata update (name immutable)", old: storedAsIs[acj],
			mutate: func(a acj) { a.Name = "acj-other" }, want: []wantErr{invalid("metadata.name", "immutable")}},
		{upstream: v + "validateAdvancedCronJobUpdate: the spec rules (schedule parses)", old: storedAsIs[acj],
			mutate: func(a acj) { a.Spec.Schedule = "never" }, want: []wantErr{invalid("spec.schedule")}},
	}
	runUpstreamWorkloadRules(t, workloadRuleKind[acj]{
		fresh: newAdvancedCronJob, deepCopy: func(a acj) acj { return a.DeepCopy() },
		create: ValidateAdvancedCronJob, update: ValidateAdvancedCronJobUpdate,
	}, cases)
}
