package validation

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// OpenKruise's pkg/webhook/imagepulljob/validating, rule by rule; README "Other kinds"
// says which rules we do not match.
func TestUpstreamRulesImagePullJob(t *testing.T) {
	const f = "imagepulljob/validating/imagepulljob_create_update_handler.go:validate: "
	selector := func(names []string, labels *metav1.LabelSelector) func(*apps.ImagePullJob) {
		return func(j *apps.ImagePullJob) {
			j.Spec.Selector = &apps.ImagePullJobNodeSelector{Names: names}
			if labels != nil {
				j.Spec.Selector.LabelSelector = *labels
			}
		}
	}
	always := func(deadline int64, timeout *int32) func(*apps.ImagePullJob) {
		return func(j *apps.ImagePullJob) {
			j.Spec.CompletionPolicy = apps.CompletionPolicy{Type: apps.Always, ActiveDeadlineSeconds: &deadline}
			j.Spec.PullPolicy.TimeoutSeconds = timeout
		}
	}
	runUpstreamRules(t, upstreamKind[*apps.ImagePullJob]{
		kind: "ImagePullJob", valid: func() *apps.ImagePullJob { return newImagePullJob(t) },
		validate: ValidateImagePullJob, validateUpdate: ValidateImagePullJobUpdate,
	}, []upstreamRule[*apps.ImagePullJob]{
		{rule: f + "selector names or a label selector, not both",
			mut: selector([]string{"node-1"}, matchLabels("pool", "a")), want: []wantErr{invalid("spec.selector", "mutually exclusive")}},
		{rule: f + "selector by kube's rules",
			mut: selector(nil, matchLabels("pool", "-a-")), want: []wantErr{invalid("spec.selector.matchLabels")}},
		{rule: f + "selector names unique",
			mut: selector([]string{"node-1", "node-1"}, nil), want: []wantErr{duplicate("spec.selector.names[1]")}},
		{rule: f + "selector and podSelector not both",
			mut: func(j *apps.ImagePullJob) {
				selector([]string{"node-1"}, nil)(j)
				j.Spec.PodSelector = &apps.ImagePullJobPodSelector{LabelSelector: *matchLabels("app", "web")}
			}, want: []wantErr{forbidden("spec.podSelector")}},
		{rule: f + "podSelector by kube's rules",
			mut: func(j *apps.ImagePullJob) {
				j.Spec.PodSelector = &apps.ImagePullJobPodSelector{LabelSelector: *matchLabels("app", "-web-")}
			}, want: []wantErr{invalid("spec.podSelector.matchLabels")}},
		{rule: f + "image required",
			mut: func(j *apps.ImagePullJob) { j.Spec.Image = "" }, want: []wantErr{required("spec.image")}},
		{rule: f + "image a valid reference (NormalizeImageRef)",
			mut: func(j *apps.ImagePullJob) { j.Spec.Image = "Nginx:1.9" }, want: []wantErr{invalid("spec.image")}},
		{rule: f + "Always: activeDeadlineSeconds at least pullPolicy.timeoutSeconds",
			mut:  always(300, int32p(301)),
			want: []wantErr{invalid("spec.completionPolicy.activeDeadlineSeconds", "at least pullPolicy.timeoutSeconds (301)")}},
		{rule: f + "Always: activeDeadlineSeconds at least the default timeout of 600 s",
			mut:  always(599, nil),
			want: []wantErr{invalid("spec.completionPolicy.activeDeadlineSeconds", "at least pullPolicy.timeoutSeconds (600)")}},
		{rule: f + "Never: no activeDeadlineSeconds or ttlSecondsAfterFinished",
			mut: func(j *apps.ImagePullJob) {
				j.Spec.CompletionPolicy = apps.CompletionPolicy{Type: apps.Never, ActiveDeadlineSeconds: new(int64(600)), TTLSecondsAfterFinished: int32p(10)}
			}, want: []wantErr{forbidden("spec.completionPolicy.activeDeadlineSeconds"), forbidden("spec.completionPolicy.ttlSecondsAfterFinished")}},
		{rule: f + "completionPolicy type Always or Never",
			mut:  func(j *apps.ImagePullJob) { j.Spec.CompletionPolicy.Type = "Sometimes" },
			want: []wantErr{notSupported("spec.completionPolicy.type")}},
	})
}

// A job stored before the deadline rule stays updatable while its completion and pull
// policies stay as they are.
func TestImagePullJobDeadlineRatchet(t *testing.T) {
	old := newImagePullJob(t)
	old.Spec.CompletionPolicy.ActiveDeadlineSeconds = new(int64(60))
	j := old.DeepCopy()
	j.Spec.Parallelism = intOrStr(3)
	expectErrors(t, ValidateImagePullJobUpdate(j, old))
	j.Spec.CompletionPolicy.ActiveDeadlineSeconds = new(int64(120))
	expectErrors(t, ValidateImagePullJobUpdate(j, old), invalid("spec.completionPolicy.activeDeadlineSeconds"))
	j.Spec.CompletionPolicy.ActiveDeadlineSeconds = new(int64(600))
	expectErrors(t, ValidateImagePullJobUpdate(j, old))
}
