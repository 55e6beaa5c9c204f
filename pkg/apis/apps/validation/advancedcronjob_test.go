package validation

import (
	"fmt"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/defaulting"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// jobPodTemplate is a pod template whose pods end.
func jobPodTemplate() corev1.PodTemplateSpec {
	t := podTemplate(nil)
	t.Spec.RestartPolicy = corev1.RestartPolicyNever
	return t
}

// indexed makes jt's Jobs Indexed with completions indexes.
func indexed(jt *batchv1.JobTemplateSpec, completions int32) *batchv1.JobTemplateSpec {
	jt.Spec.CompletionMode = new(batchv1.IndexedCompletion)
	jt.Spec.Completions = new(completions)
	return jt
}

// newAdvancedCronJob returns a valid, defaulted AdvancedCronJob running a BroadcastJob
// every minute, as the documented example.
func newAdvancedCronJob(t *testing.T) *apps.AdvancedCronJob {
	t.Helper()
	v := &v1alpha1.AdvancedCronJob{
		ObjectMeta: metav1.ObjectMeta{Name: "acj-test", Namespace: "default", ResourceVersion: "1"},
		Spec: v1alpha1.AdvancedCronJobSpec{
			Schedule: "*/1 * * * *",
			Template: v1alpha1.CronJobTemplate{BroadcastJobTemplate: &v1alpha1.BroadcastJobTemplateSpec{
				Spec: v1alpha1.BroadcastJobSpec{Template: jobPodTemplate()},
			}},
		},
	}
	v1alpha1.SetObjectDefaults_AdvancedCronJob(v)
	out := &apps.AdvancedCronJob{}
	toInternal(t, v, out)
	return out
}

func TestValidateAdvancedCronJob(t *testing.T) {
	const bcjSpec = "spec.template.broadcastJobTemplate.spec"
	// Set after defaulting in these cases, so defaulted here as the server would.
	jobTemplate := func() *batchv1.JobTemplateSpec {
		jt := &batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: jobPodTemplate()}}
		defaulting.PodTemplate(&jt.Spec.Template)
		return jt
	}
	ilpjTemplate := func() *apps.ImageListPullJobTemplateSpec {
		return &apps.ImageListPullJobTemplateSpec{Spec: apps.ImageListPullJobSpec{
			Images:               []string{"nginx:1.25"},
			ImagePullJobTemplate: apps.ImagePullJobTemplate{CompletionPolicy: apps.CompletionPolicy{Type: apps.Always}},
		}}
	}
	str := func(s string) *string { return &s }
	cases := []struct {
		name   string
		mutate func(j *apps.AdvancedCronJob)
		want   []wantErr
	}{
		{name: "documented example", mutate: func(*apps.AdvancedCronJob) {}},

		// schedule and time zone
		{name: "descriptor", mutate: func(j *apps.AdvancedCronJob) { j.Spec.Schedule = "@hourly" }},
		{name: "no schedule", mutate: func(j *apps.AdvancedCronJob) { j.Spec.Schedule = "" },
			want: []wantErr{required("spec.schedule")}},
		{name: "bad expression", mutate: func(j *apps.AdvancedCronJob) { j.Spec.Schedule = "every minute" },
			want: []wantErr{invalid("spec.schedule")}},
		{name: "minute out of range", mutate: func(j *apps.AdvancedCronJob) { j.Spec.Schedule = "61 * * * *" },
			want: []wantErr{invalid("spec.schedule")}},
		{name: "TZ in the schedule", mutate: func(j *apps.AdvancedCronJob) { j.Spec.Schedule = "TZ=UTC 0 * * * *" },
			want: []wantErr{invalid("spec.schedule", "use timeZone field instead")}},
		{name: "CRON_TZ in the schedule", mutate: func(j *apps.AdvancedCronJob) { j.Spec.Schedule = "CRON_TZ=UTC 0 * * * *" },
			want: []wantErr{invalid("spec.schedule", "use timeZone field instead")}},
		{name: "time zone", mutate: func(j *apps.AdvancedCronJob) { j.Spec.TimeZone = str("Asia/Shanghai") }},
		{name: "legacy zone name", mutate: func(j *apps.AdvancedCronJob) { j.Spec.TimeZone = str("Etc/GMT+5") }},
		{name: "unknown time zone", mutate: func(j *apps.AdvancedCronJob) { j.Spec.TimeZone = str("Mars/Olympus_Mons") },
			want: []wantErr{invalid("spec.timeZone")}},
		{name: "empty time zone", mutate: func(j *apps.AdvancedCronJob) { j.Spec.TimeZone = str("") },
			want: []wantErr{invalid("spec.timeZone")}},
		{name: "Local", mutate: func(j *apps.AdvancedCronJob) { j.Spec.TimeZone = str("Local") },
			want: []wantErr{invalid("spec.timeZone", "explicit time zone")}},
		{name: "path as a zone", mutate: func(j *apps.AdvancedCronJob) { j.Spec.TimeZone = str("../../etc/passwd") },
			want: []wantErr{invalid("spec.timeZone", "unknown time zone")}},

		// policies and limits
		{name: "Forbid", mutate: func(j *apps.AdvancedCronJob) { j.Spec.ConcurrencyPolicy = apps.ForbidConcurrent }},
		{name: "unknown concurrency policy", mutate: func(j *apps.AdvancedCronJob) { j.Spec.ConcurrencyPolicy = "Sometimes" },
			want: []wantErr{notSupported("spec.concurrencyPolicy")}},
		{name: "negative deadline and limits", mutate: func(j *apps.AdvancedCronJob) {
			j.Spec.StartingDeadlineSeconds = new(int64(-1))
			j.Spec.SuccessfulJobsHistoryLimit = int32p(-1)
			j.Spec.FailedJobsHistoryLimit = int32p(-1)
		},
			want: []wantErr{invalid("spec.startingDeadlineSeconds"), invalid("spec.successfulJobsHistoryLimit"), invalid("spec.failedJobsHistoryLimit")}},
		{name: "zero limits", mutate: func(j *apps.AdvancedCronJob) {
			j.Spec.SuccessfulJobsHistoryLimit = int32p(0)
			j.Spec.FailedJobsHistoryLimit = int32p(0)
		}},

		// the template union
		{name: "no template", mutate: func(j *apps.AdvancedCronJob) { j.Spec.Template = apps.CronJobTemplate{} },
			want: []wantErr{required("spec.template")}},
		{name: "two templates", mutate: func(j *apps.AdvancedCronJob) { j.Spec.Template.JobTemplate = jobTemplate() },
			want: []wantErr{invalid("spec.template", "exactly one")}},
		{name: "job template", mutate: func(j *apps.AdvancedCronJob) {
			j.Spec.Template = apps.CronJobTemplate{JobTemplate: jobTemplate()}
		}},
		{name: "job template restarting always", mutate: func(j *apps.AdvancedCronJob) {
			jt := jobTemplate()
			jt.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways
			j.Spec.Template = apps.CronJobTemplate{JobTemplate: jt}
		},
			// kube reports it as Required, with the valid values.
			want: []wantErr{required("spec.template.jobTemplate.spec.template.spec.restartPolicy")}},
		{name: "job template with a selector", mutate: func(j *apps.AdvancedCronJob) {
			jt := jobTemplate()
			jt.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}}
			j.Spec.Template = apps.CronJobTemplate{JobTemplate: jt}
		},
			want: []wantErr{invalid("spec.template.jobTemplate.spec.selector")}},
		{name: "broadcast job template restarting always", mutate: func(j *apps.AdvancedCronJob) {
			j.Spec.Template.BroadcastJobTemplate.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways
		},
			want: []wantErr{notSupported(bcjSpec + ".template.spec.restartPolicy")}},
		{name: "broadcast job template with negative parallelism", mutate: func(j *apps.AdvancedCronJob) {
			j.Spec.Template.BroadcastJobTemplate.Spec.Parallelism = intOrStr(-1)
		},
			want: []wantErr{invalid(bcjSpec + ".parallelism")}},
		{name: "broadcast job template with a bad label", mutate: func(j *apps.AdvancedCronJob) {
			j.Spec.Template.BroadcastJobTemplate.Labels = map[string]string{"a": "not valid!"}
		},
			want: []wantErr{invalid("spec.template.broadcastJobTemplate.metadata.labels")}},
		{name: "image list pull job template", mutate: func(j *apps.AdvancedCronJob) {
			j.Spec.Template = apps.CronJobTemplate{ImageListPullJobTemplate: ilpjTemplate()}
		}},
		{name: "image list pull job template without images", mutate: func(j *apps.AdvancedCronJob) {
			it := ilpjTemplate()
			it.Spec.Images = nil
			j.Spec.Template = apps.CronJobTemplate{ImageListPullJobTemplate: it}
		},
			want: []wantErr{required("spec.template.imageListPullJobTemplate.spec.images")}},
		{name: "image list pull job template with more images than an ImageListPullJob may have", mutate: func(j *apps.AdvancedCronJob) {
			it := ilpjTemplate()
			it.Spec.Images = nil
			for i := range MaxImageListPullJobImages + 1 {
				it.Spec.Images = append(it.Spec.Images, fmt.Sprintf("registry.example/img-%d:1", i))
			}
			j.Spec.Template = apps.CronJobTemplate{ImageListPullJobTemplate: it}
		},
			want: []wantErr{{Type: "FieldValueTooMany", Field: "spec.template.imageListPullJobTemplate.spec.images"}}},

		// names: each run is <name>-<10-digit Unix time>, and must be a name of its kind
		{name: "longest name of BroadcastJob runs", mutate: func(j *apps.AdvancedCronJob) { j.Name = strings.Repeat("a", 52) }},
		{name: "name too long for its BroadcastJob runs' pod label", mutate: func(j *apps.AdvancedCronJob) { j.Name = strings.Repeat("a", 53) },
			want: []wantErr{invalid("metadata.name", "must be no more than 52 characters: its BroadcastJobs are named <name>-<scheduled Unix time>")}},
		{name: "the 60-character name of the issue", mutate: func(j *apps.AdvancedCronJob) { j.Name = strings.Repeat("a", 60) },
			want: []wantErr{invalid("metadata.name", "must be no more than 52 characters")}},
		{name: "longest name of Job runs", mutate: func(j *apps.AdvancedCronJob) {
			j.Name = strings.Repeat("a", 52)
			j.Spec.Template = apps.CronJobTemplate{JobTemplate: jobTemplate()}
		}},
		{name: "name too long for its Jobs' pod label", mutate: func(j *apps.AdvancedCronJob) {
			j.Name = strings.Repeat("a", 53)
			j.Spec.Template = apps.CronJobTemplate{JobTemplate: jobTemplate()}
		}, want: []wantErr{invalid("metadata.name", "must be no more than 52 characters: its Jobs are named <name>-<scheduled Unix time>")}},
		{name: "Indexed Job runs: the last index's hostname fits", mutate: func(j *apps.AdvancedCronJob) {
			j.Name = strings.Repeat("a", 50)
			j.Spec.Template = apps.CronJobTemplate{JobTemplate: indexed(jobTemplate(), 10)}
		}},
		{name: "name too long for the hostname of an Indexed Job's last pod", mutate: func(j *apps.AdvancedCronJob) {
			j.Name = strings.Repeat("a", 51)
			j.Spec.Template = apps.CronJobTemplate{JobTemplate: indexed(jobTemplate(), 10)}
		}, want: []wantErr{invalid("metadata.name",
			"must be no more than 50 characters: its Jobs' pods have the hostname <name>-<scheduled Unix time>-<index up to 9>")}},
		{name: "ImageListPullJob runs: a long name is fine", mutate: func(j *apps.AdvancedCronJob) {
			j.Name = strings.Repeat("a", 233)
			j.Spec.Template = apps.CronJobTemplate{ImageListPullJobTemplate: ilpjTemplate()}
		}},
		{name: "name too long for its ImageListPullJobs' ImagePullJobs", mutate: func(j *apps.AdvancedCronJob) {
			j.Name = strings.Repeat("a", 234)
			j.Spec.Template = apps.CronJobTemplate{ImageListPullJobTemplate: ilpjTemplate()}
		}, want: []wantErr{invalid("metadata.name", "must be no more than 233 characters: its ImageListPullJobs are named")}},
		{name: "no name rule without a single template", mutate: func(j *apps.AdvancedCronJob) {
			j.Name = strings.Repeat("a", 60)
			j.Spec.Template = apps.CronJobTemplate{}
		}, want: []wantErr{required("spec.template")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j := newAdvancedCronJob(t)
			tc.mutate(j)
			expectErrors(t, ValidateAdvancedCronJob(j), tc.want...)
		})
	}
}

func TestValidateAdvancedCronJobUpdate(t *testing.T) {
	str := func(s string) *string { return &s }
	jobTemplate := func() *batchv1.JobTemplateSpec {
		jt := &batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: jobPodTemplate()}}
		defaulting.PodTemplate(&jt.Spec.Template)
		return jt
	}
	cases := []struct {
		name        string
		old, mutate func(j *apps.AdvancedCronJob)
		want        []wantErr
	}{
		{name: "pause", mutate: func(j *apps.AdvancedCronJob) { j.Spec.Paused = new(true) }},
		{name: "a stored TZ prefix may stay",
			old:    func(j *apps.AdvancedCronJob) { j.Spec.Schedule = "TZ=UTC 0 * * * *" },
			mutate: func(j *apps.AdvancedCronJob) { j.Spec.Schedule = "TZ=UTC 5 * * * *" }},
		{name: "but not beside timeZone",
			old: func(j *apps.AdvancedCronJob) { j.Spec.Schedule = "TZ=UTC 0 * * * *" },
			mutate: func(j *apps.AdvancedCronJob) {
				j.Spec.Schedule = "TZ=UTC 5 * * * *"
				j.Spec.TimeZone = str("UTC")
			},
			want: []wantErr{invalid("spec.schedule", "both")}},
		{name: "a new TZ prefix is refused", mutate: func(j *apps.AdvancedCronJob) { j.Spec.Schedule = "TZ=UTC 0 * * * *" },
			want: []wantErr{invalid("spec.schedule")}},
		{name: "unknown zone", mutate: func(j *apps.AdvancedCronJob) { j.Spec.TimeZone = str("Nowhere/Else") },
			want: []wantErr{invalid("spec.timeZone")}},

		// a stored name is not checked again, unless the kind of run changes
		{name: "a stored long name may be updated",
			old:    func(j *apps.AdvancedCronJob) { j.Name = strings.Repeat("a", 60) },
			mutate: func(j *apps.AdvancedCronJob) { j.Spec.Paused = new(true) }},
		{name: "more indexes than the stored name leaves room for",
			old: func(j *apps.AdvancedCronJob) {
				j.Name = strings.Repeat("a", 52)
				j.Spec.Template = apps.CronJobTemplate{JobTemplate: jobTemplate()}
			},
			mutate: func(j *apps.AdvancedCronJob) { j.Spec.Template.JobTemplate = indexed(j.Spec.Template.JobTemplate, 10) },
			want:   []wantErr{invalid("metadata.name", "must be no more than 50 characters")}},
		{name: "switching to runs the name is too long for",
			old: func(j *apps.AdvancedCronJob) {
				j.Name = strings.Repeat("a", 100)
				j.Spec.Template = apps.CronJobTemplate{ImageListPullJobTemplate: &apps.ImageListPullJobTemplateSpec{Spec: apps.ImageListPullJobSpec{
					Images: []string{"nginx:1.25"}, ImagePullJobTemplate: apps.ImagePullJobTemplate{CompletionPolicy: apps.CompletionPolicy{Type: apps.Always}}}}}
			},
			mutate: func(j *apps.AdvancedCronJob) {
				j.Spec.Template = apps.CronJobTemplate{BroadcastJobTemplate: newAdvancedCronJob(t).Spec.Template.BroadcastJobTemplate}
			},
			want: []wantErr{invalid("metadata.name", "must be no more than 52 characters")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := newAdvancedCronJob(t)
			if tc.old != nil {
				tc.old(old)
			}
			j := old.DeepCopy()
			tc.mutate(j)
			expectErrors(t, ValidateAdvancedCronJobUpdate(j, old), tc.want...)
		})
	}
}

func TestValidateAdvancedCronJobStatusUpdate(t *testing.T) {
	old := newAdvancedCronJob(t)
	j := old.DeepCopy()
	j.Status.Type = apps.BroadcastJobTemplate
	expectErrors(t, ValidateAdvancedCronJobStatusUpdate(j, old))
	j.Status.Type = "CronJob"
	expectErrors(t, ValidateAdvancedCronJobStatusUpdate(j, old), notSupported("status.type"))
}
