package validation

import (
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

func newImageListPullJob(t *testing.T) *apps.ImageListPullJob {
	t.Helper()
	v := &v1alpha1.ImageListPullJob{
		ObjectMeta: metav1.ObjectMeta{Name: "list", Namespace: "default", ResourceVersion: "1"},
		Spec:       v1alpha1.ImageListPullJobSpec{Images: []string{"nginx:1", "busybox"}},
	}
	v1alpha1.SetObjectDefaults_ImageListPullJob(v)
	out := &apps.ImageListPullJob{}
	toInternal(t, v, out)
	return out
}

func images(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("registry.example/app-%d:v1", i)
	}
	return out
}

// OpenKruise's pkg/webhook/imagelistpulljob/validating, rule by rule.
func TestUpstreamRulesImageListPullJob(t *testing.T) {
	const f = "imagelistpulljob/validating/imagelistpulljob_create_update_handler.go:validate: "
	selector := func(names []string, labels *metav1.LabelSelector) func(*apps.ImageListPullJob) {
		return func(j *apps.ImageListPullJob) {
			j.Spec.Selector = &apps.ImagePullJobNodeSelector{Names: names}
			if labels != nil {
				j.Spec.Selector.LabelSelector = *labels
			}
		}
	}
	runUpstreamRules(t, upstreamKind[*apps.ImageListPullJob]{
		kind: "ImageListPullJob", valid: func() *apps.ImageListPullJob { return newImageListPullJob(t) },
		validate: ValidateImageListPullJob, validateUpdate: ValidateImageListPullJobUpdate,
	}, []upstreamRule[*apps.ImageListPullJob]{
		{rule: f + "selector names or a label selector, not both",
			mut: selector([]string{"node-1"}, matchLabels("pool", "a")), want: []wantErr{invalid("spec.selector", "mutually exclusive")}},
		{rule: f + "selector by kube's rules",
			mut: selector(nil, matchLabels("pool", "-a-")), want: []wantErr{invalid("spec.selector.matchLabels")}},
		{rule: f + "selector names unique",
			mut: selector([]string{"node-1", "node-1"}, nil), want: []wantErr{duplicate("spec.selector.names[1]")}},
		{rule: f + "selector and podSelector not both",
			mut: func(j *apps.ImageListPullJob) {
				selector([]string{"node-1"}, nil)(j)
				j.Spec.PodSelector = &apps.ImagePullJobPodSelector{LabelSelector: *matchLabels("app", "web")}
			}, want: []wantErr{forbidden("spec.podSelector")}},
		{rule: f + "podSelector by kube's rules",
			mut: func(j *apps.ImageListPullJob) {
				j.Spec.PodSelector = &apps.ImagePullJobPodSelector{LabelSelector: *matchLabels("app", "-web-")}
			}, want: []wantErr{invalid("spec.podSelector.matchLabels")}},
		{rule: f + "images required",
			mut: func(j *apps.ImageListPullJob) { j.Spec.Images = nil }, want: []wantErr{required("spec.images")}},
		{rule: f + "images unique",
			mut: func(j *apps.ImageListPullJob) { j.Spec.Images = []string{"nginx:1", "nginx:1"} }, want: []wantErr{duplicate("spec.images[1]")}},
		{rule: f + "at most 255 images",
			mut:  func(j *apps.ImageListPullJob) { j.Spec.Images = images(256) },
			want: []wantErr{{Type: "FieldValueTooMany", Field: "spec.images"}}},
		{rule: f + "each image a valid reference (NormalizeImageRef)",
			mut: func(j *apps.ImageListPullJob) { j.Spec.Images[1] = "Busybox" }, want: []wantErr{invalid("spec.images[1]")}},
		{rule: f + "Never: no activeDeadlineSeconds or ttlSecondsAfterFinished",
			mut: func(j *apps.ImageListPullJob) {
				j.Spec.CompletionPolicy = apps.CompletionPolicy{Type: apps.Never, ActiveDeadlineSeconds: new(int64(600)), TTLSecondsAfterFinished: int32p(10)}
			}, want: []wantErr{forbidden("spec.completionPolicy.activeDeadlineSeconds"), forbidden("spec.completionPolicy.ttlSecondsAfterFinished")}},
		{rule: f + "completionPolicy type Always or Never",
			mut:  func(j *apps.ImageListPullJob) { j.Spec.CompletionPolicy.Type = "Sometimes" },
			want: []wantErr{notSupported("spec.completionPolicy.type")}},
	})
}

// A list stored with more than 255 images stays updatable while its images stay.
func TestImageListPullJobCountRatchet(t *testing.T) {
	old := newImageListPullJob(t)
	old.Spec.Images = images(300)
	j := old.DeepCopy()
	j.Spec.Parallelism = intOrStr(3)
	expectErrors(t, ValidateImageListPullJobUpdate(j, old))
	j.Spec.Images = images(299)
	expectErrors(t, ValidateImageListPullJobUpdate(j, old), wantErr{Type: "FieldValueTooMany", Field: "spec.images"})
}
