package validation

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

func newImagePullJob(t *testing.T) *apps.ImagePullJob {
	t.Helper()
	v := &v1alpha1.ImagePullJob{
		ObjectMeta: metav1.ObjectMeta{Name: "job", Namespace: "default", ResourceVersion: "1"},
		Spec:       v1alpha1.ImagePullJobSpec{Image: "nginx:1.9.1"},
	}
	v1alpha1.SetObjectDefaults_ImagePullJob(v)
	out := &apps.ImagePullJob{}
	toInternal(t, v, out)
	return out
}

func TestValidateImagePullJob(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(j *apps.ImagePullJob)
		want   []wantErr
	}{
		{name: "defaulted minimal job", mutate: func(*apps.ImagePullJob) {}},
		{name: "no image", mutate: func(j *apps.ImagePullJob) { j.Spec.Image = "" },
			want: []wantErr{required("spec.image")}},
		{name: "bad image", mutate: func(j *apps.ImagePullJob) { j.Spec.Image = "Nginx:1" },
			want: []wantErr{invalid("spec.image", "not a valid image reference")}},
		{name: "digest", mutate: func(j *apps.ImagePullJob) {
			j.Spec.Image = "nginx@sha256:0123456789012345678901234567890123456789012345678901234567890123"
		}, want: []wantErr{invalid("spec.image", "digests are not supported")}},
		{name: "names and labels", mutate: func(j *apps.ImagePullJob) {
			j.Spec.Selector = &apps.ImagePullJobNodeSelector{Names: []string{"node-1"},
				LabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}}}
		}, want: []wantErr{invalid("spec.selector", "mutually exclusive")}},
		{name: "duplicate node name", mutate: func(j *apps.ImagePullJob) {
			j.Spec.Selector = &apps.ImagePullJobNodeSelector{Names: []string{"node-1", "node-1"}}
		}, want: []wantErr{duplicate("spec.selector.names[1]")}},
		{name: "podSelector with selector", mutate: func(j *apps.ImagePullJob) {
			j.Spec.Selector = &apps.ImagePullJobNodeSelector{Names: []string{"node-1"}}
			j.Spec.PodSelector = &apps.ImagePullJobPodSelector{LabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}}}
		}, want: []wantErr{forbidden("spec.podSelector", "mutually exclusive")}},
		{name: "bad label selector", mutate: func(j *apps.ImagePullJob) {
			j.Spec.PodSelector = &apps.ImagePullJobPodSelector{LabelSelector: metav1.LabelSelector{
				MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Near"}}}}
		}, want: []wantErr{invalid("spec.podSelector.matchExpressions[0].operator")}},
		{name: "negative parallelism", mutate: func(j *apps.ImagePullJob) { j.Spec.Parallelism = intOrStr(-1) },
			want: []wantErr{invalid("spec.parallelism")}},
		{name: "parallelism percent", mutate: func(j *apps.ImagePullJob) { j.Spec.Parallelism = strOrStr("50%") }},
		{name: "parallelism 0 pauses", mutate: func(j *apps.ImagePullJob) { j.Spec.Parallelism = intOrStr(0) }},
		{name: "zero timeout", mutate: func(j *apps.ImagePullJob) { j.Spec.PullPolicy.TimeoutSeconds = new(int32(0)) },
			want: []wantErr{invalid("spec.pullPolicy.timeoutSeconds")}},
		{name: "negative backoff", mutate: func(j *apps.ImagePullJob) { j.Spec.PullPolicy.BackoffLimit = new(int32(-1)) },
			want: []wantErr{invalid("spec.pullPolicy.backoffLimit")}},
		{name: "unknown completion type", mutate: func(j *apps.ImagePullJob) { j.Spec.CompletionPolicy.Type = "Sometimes" },
			want: []wantErr{notSupported("spec.completionPolicy.type")}},
		{name: "Never with a deadline", mutate: func(j *apps.ImagePullJob) {
			j.Spec.CompletionPolicy = apps.CompletionPolicy{Type: apps.Never, ActiveDeadlineSeconds: new(int64(10)), TTLSecondsAfterFinished: new(int32(5))}
		}, want: []wantErr{forbidden("spec.completionPolicy.activeDeadlineSeconds"), forbidden("spec.completionPolicy.ttlSecondsAfterFinished")}},
		{name: "zero deadline", mutate: func(j *apps.ImagePullJob) { j.Spec.CompletionPolicy.ActiveDeadlineSeconds = new(int64(0)) },
			want: []wantErr{invalid("spec.completionPolicy.activeDeadlineSeconds")}},
		{name: "unknown pull policy", mutate: func(j *apps.ImagePullJob) { j.Spec.ImagePullPolicy = "Never" },
			want: []wantErr{notSupported("spec.imagePullPolicy")}},
		{name: "bad secret name", mutate: func(j *apps.ImagePullJob) { j.Spec.PullSecrets = []string{"Secret_1"} },
			want: []wantErr{invalid("spec.pullSecrets[0]")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j := newImagePullJob(t)
			tc.mutate(j)
			expectErrors(t, ValidateImagePullJob(j), tc.want...)
		})
	}
}

func TestValidateImagePullJobUpdate(t *testing.T) {
	old := newImagePullJob(t)
	j := old.DeepCopy()
	j.Spec.Parallelism = intOrStr(5)
	expectErrors(t, ValidateImagePullJobUpdate(j, old))
	j.Spec.Image = "nginx:1.10"
	expectErrors(t, ValidateImagePullJobUpdate(j, old), invalid("spec.image", "immutable"))
}

func TestValidateImageListPullJob(t *testing.T) {
	v := &v1alpha1.ImageListPullJob{
		ObjectMeta: metav1.ObjectMeta{Name: "list", Namespace: "default"},
		Spec:       v1alpha1.ImageListPullJobSpec{Images: []string{"nginx:1", "busybox"}},
	}
	v1alpha1.SetObjectDefaults_ImageListPullJob(v)
	j := &apps.ImageListPullJob{}
	toInternal(t, v, j)
	expectErrors(t, ValidateImageListPullJob(j))
	j.Spec.Images = []string{"nginx:1", "nginx:1", ""}
	expectErrors(t, ValidateImageListPullJob(j), duplicate("spec.images[1]"), required("spec.images[2]"))
	j.Spec.Images = nil
	expectErrors(t, ValidateImageListPullJob(j), required("spec.images"))
	j.Spec.Images = []string{"nginx:1"}

	// Its ImagePullJobs are <name>-<8 hex digits>, at most 253 characters.
	j.Name = strings.Repeat("a", 244)
	expectErrors(t, ValidateImageListPullJob(j))
	j.Name = strings.Repeat("a", 245)
	expectErrors(t, ValidateImageListPullJob(j),
		invalid("metadata.name", "must be no more than 244 characters: its ImagePullJobs are named <name>-<8 hex digits>"))
}

func newNodeImage(t *testing.T) *apps.NodeImage {
	t.Helper()
	v := &v1alpha1.NodeImage{
		ObjectMeta: metav1.ObjectMeta{Name: "node-1", ResourceVersion: "1"},
		Spec: v1alpha1.NodeImageSpec{Images: map[string]v1alpha1.ImageSpec{
			"ubuntu": {Tags: []v1alpha1.ImageTagSpec{{Tag: "latest"}}},
		}},
	}
	v1alpha1.SetObjectDefaults_NodeImage(v)
	out := &apps.NodeImage{}
	toInternal(t, v, out)
	return out
}

func TestValidateNodeImage(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(ni *apps.NodeImage)
		want   []wantErr
	}{
		{name: "defaulted", mutate: func(*apps.NodeImage) {}},
		{name: "namespaced", mutate: func(ni *apps.NodeImage) { ni.Namespace = "default" },
			want: []wantErr{forbidden("metadata.namespace")}},
		{name: "image key with tag", mutate: func(ni *apps.NodeImage) {
			ni.Spec.Images["nginx:1"] = apps.ImageSpec{Tags: []apps.ImageTagSpec{{Tag: "1"}}}
		}, want: []wantErr{invalid("spec.images[nginx:1]", "must not contain a tag")}},
		{name: "no tags", mutate: func(ni *apps.NodeImage) { ni.Spec.Images["busybox"] = apps.ImageSpec{} },
			want: []wantErr{required("spec.images[busybox].tags")}},
		{name: "duplicate and bad tags", mutate: func(ni *apps.NodeImage) {
			ni.Spec.Images["busybox"] = apps.ImageSpec{Tags: []apps.ImageTagSpec{{Tag: "1"}, {Tag: "1"}, {Tag: "-x"}}}
		}, want: []wantErr{duplicate("spec.images[busybox].tags[1].tag"), invalid("spec.images[busybox].tags[2].tag")}},
		{name: "pull secret without namespace", mutate: func(ni *apps.NodeImage) {
			img := ni.Spec.Images["ubuntu"]
			img.PullSecrets = []apps.ReferenceObject{{Name: "s"}}
			ni.Spec.Images["ubuntu"] = img
		}, want: []wantErr{required("spec.images[ubuntu].pullSecrets[0].namespace")}},
		{name: "tag pull secret without name", mutate: func(ni *apps.NodeImage) {
			img := ni.Spec.Images["ubuntu"]
			img.Tags[0].PullSecrets = []apps.ReferenceObject{{Namespace: "ns"}}
		}, want: []wantErr{required("spec.images[ubuntu].tags[0].pullSecrets[0].name")}},
		{name: "bad pull policy", mutate: func(ni *apps.NodeImage) {
			img := ni.Spec.Images["ubuntu"]
			img.Tags[0].PullPolicy.TimeoutSeconds = new(int32(-1))
			img.Tags[0].PullPolicy.ActiveDeadlineSeconds = new(int64(0))
			img.Tags[0].PullPolicy.TTLSecondsAfterFinished = new(int32(-5))
		}, want: []wantErr{
			invalid("spec.images[ubuntu].tags[0].pullPolicy.timeoutSeconds"),
			invalid("spec.images[ubuntu].tags[0].pullPolicy.activeDeadlineSeconds"),
			invalid("spec.images[ubuntu].tags[0].pullPolicy.ttlSecondsAfterFinished"),
		}},
		{name: "v1beta1-fields annotation set by the client", mutate: func(ni *apps.NodeImage) {
			ni.Annotations = map[string]string{apps.NodeImageV1beta1FieldsAnnotation: `{"waiting":3}`}
		}, want: []wantErr{forbidden("metadata.annotations[" + apps.NodeImageV1beta1FieldsAnnotation + "]")}},
		{name: "too many images", mutate: func(ni *apps.NodeImage) {
			for i := 0; i <= MaxNodeImageImages; i++ {
				ni.Spec.Images["img"+string(rune('a'+i%26))+string(rune('a'+i/26))] = apps.ImageSpec{Tags: []apps.ImageTagSpec{{Tag: "1"}}}
			}
		}, want: []wantErr{{Type: "FieldValueTooMany", Field: "spec.images"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ni := newNodeImage(t)
			tc.mutate(ni)
			expectErrors(t, ValidateNodeImage(ni), tc.want...)
		})
	}
}

// The annotation a v1alpha1 read carries never reaches the internal object: a client
// that writes it back through v1alpha1 passes, one that sets it on the internal object
// (through v1beta1) does not, unless an update leaves a stored value as it was.
func TestNodeImageV1beta1FieldsAnnotation(t *testing.T) {
	key := apps.NodeImageV1beta1FieldsAnnotation
	v := &v1alpha1.NodeImage{
		ObjectMeta: metav1.ObjectMeta{Name: "node-1", ResourceVersion: "1",
			Annotations: map[string]string{key: `{"waiting":2}`}},
		Spec: v1alpha1.NodeImageSpec{Images: map[string]v1alpha1.ImageSpec{
			"ubuntu": {Tags: []v1alpha1.ImageTagSpec{{Tag: "latest"}}},
		}},
	}
	v1alpha1.SetObjectDefaults_NodeImage(v)
	fromAlpha := &apps.NodeImage{}
	toInternal(t, v, fromAlpha)
	if _, ok := fromAlpha.Annotations[key]; ok || fromAlpha.Status.Waiting != 2 {
		t.Fatalf("conversion from v1alpha1 kept the annotation or lost waiting: %v, waiting %d", fromAlpha.Annotations, fromAlpha.Status.Waiting)
	}
	expectErrors(t, ValidateNodeImage(fromAlpha))

	forbiddenKey := forbidden("metadata.annotations[" + key + "]")
	old := newNodeImage(t)
	ni := old.DeepCopy()
	ni.Annotations = map[string]string{key: `{}`}
	expectErrors(t, ValidateNodeImageUpdate(ni, old), forbiddenKey)

	old.Annotations = map[string]string{key: `{}`}
	expectErrors(t, ValidateNodeImageUpdate(ni, old))
	ni.Annotations[key] = `{"waiting":1}`
	expectErrors(t, ValidateNodeImageUpdate(ni, old), forbiddenKey)
}

func TestValidateNodeImageStatusUpdate(t *testing.T) {
	old := newNodeImage(t)
	ni := old.DeepCopy()
	ni.Status = apps.NodeImageStatus{Desired: 1, Pulling: 1, ImageStatuses: map[string]apps.ImageStatus{
		"ubuntu": {Tags: []apps.ImageTagStatus{{Tag: "latest", Phase: apps.ImagePhasePulling}}},
	}}
	expectErrors(t, ValidateNodeImageStatusUpdate(ni, old))
	ni.Status.Failed = -1
	ni.Status.ImageStatuses["ubuntu"].Tags[0].Phase = "Done"
	ni.Status.ImageStatuses["ubuntu"].Tags[0].Progress = 101
	expectErrors(t, ValidateNodeImageStatusUpdate(ni, old), invalid("status.failed"),
		notSupported("status.imageStatuses[ubuntu].tags[0].phase"), invalid("status.imageStatuses[ubuntu].tags[0].progress"))
}

func newCRR(t *testing.T) *apps.ContainerRecreateRequest {
	t.Helper()
	v := &v1alpha1.ContainerRecreateRequest{
		ObjectMeta: metav1.ObjectMeta{Name: "crr", Namespace: "default", ResourceVersion: "1",
			Labels: map[string]string{v1alpha1.ContainerRecreateRequestNodeNameKey: "node-1"}},
		Spec: v1alpha1.ContainerRecreateRequestSpec{PodName: "pod-1",
			Containers: []v1alpha1.ContainerRecreateRequestContainer{{Name: "app"}, {Name: "sidecar"}}},
	}
	v1alpha1.SetObjectDefaults_ContainerRecreateRequest(v)
	out := &apps.ContainerRecreateRequest{}
	toInternal(t, v, out)
	return out
}

func TestValidateContainerRecreateRequest(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(c *apps.ContainerRecreateRequest)
		want   []wantErr
	}{
		{name: "defaulted", mutate: func(*apps.ContainerRecreateRequest) {}},
		{name: "no pod", mutate: func(c *apps.ContainerRecreateRequest) { c.Spec.PodName = "" },
			want: []wantErr{required("spec.podName")}},
		{name: "no containers", mutate: func(c *apps.ContainerRecreateRequest) { c.Spec.Containers = nil },
			want: []wantErr{required("spec.containers")}},
		{name: "duplicate container", mutate: func(c *apps.ContainerRecreateRequest) { c.Spec.Containers[1].Name = "app" },
			want: []wantErr{duplicate("spec.containers[1].name")}},
		{name: "short deadline", mutate: func(c *apps.ContainerRecreateRequest) { c.Spec.ActiveDeadlineSeconds = new(int64(2)) },
			want: []wantErr{invalid("spec.activeDeadlineSeconds", "at least 3")}},
		{name: "negative grace periods", mutate: func(c *apps.ContainerRecreateRequest) {
			c.Spec.Strategy.TerminationGracePeriodSeconds = new(int64(-1))
			c.Spec.Strategy.UnreadyGracePeriodSeconds = new(int64(-1))
			c.Spec.Strategy.MinStartedSeconds = -1
		}, want: []wantErr{invalid("spec.strategy.terminationGracePeriodSeconds"),
			invalid("spec.strategy.unreadyGracePeriodSeconds"), invalid("spec.strategy.minStartedSeconds")}},
		{name: "unknown failure policy", mutate: func(c *apps.ContainerRecreateRequest) { c.Spec.Strategy.FailurePolicy = "Retry" },
			want: []wantErr{notSupported("spec.strategy.failurePolicy")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCRR(t)
			tc.mutate(c)
			expectErrors(t, ValidateContainerRecreateRequest(c), tc.want...)
		})
	}
}

func TestValidateContainerRecreateRequestUpdate(t *testing.T) {
	old := newCRR(t)

	ctx := old.DeepCopy()
	ctx.Spec.Containers[0].StatusContext = &apps.ContainerRecreateRequestContainerContext{ContainerID: "fakecri://1"}
	expectErrors(t, ValidateContainerRecreateRequestUpdate(ctx, old))

	// A recorded context stays, unless the request forces recreation.
	recorded := ctx.DeepCopy()
	recorded.Spec.Containers[0].StatusContext = &apps.ContainerRecreateRequestContainerContext{ContainerID: "fakecri://2", RestartCount: 1}
	expectErrors(t, ValidateContainerRecreateRequestUpdate(recorded, ctx),
		forbidden("spec.containers[0].statusContext", "forceRecreate"))
	forced := ctx.DeepCopy()
	forced.Spec.Strategy.ForceRecreate = true
	reRecorded := forced.DeepCopy()
	reRecorded.Spec.Containers[0].StatusContext = &apps.ContainerRecreateRequestContainerContext{ContainerID: "fakecri://2", RestartCount: 1}
	expectErrors(t, ValidateContainerRecreateRequestUpdate(reRecorded, forced))

	// forceRecreate is part of the fixed spec.
	toggled := ctx.DeepCopy()
	toggled.Spec.Strategy.ForceRecreate = true
	expectErrors(t, ValidateContainerRecreateRequestUpdate(toggled, ctx), forbidden("spec", "immutable"))

	spec := old.DeepCopy()
	spec.Spec.Containers = spec.Spec.Containers[:1]
	expectErrors(t, ValidateContainerRecreateRequestUpdate(spec, old), forbidden("spec", "immutable"))

	node := old.DeepCopy()
	node.Labels[v1alpha1.ContainerRecreateRequestNodeNameKey] = "node-2"
	expectErrors(t, ValidateContainerRecreateRequestUpdate(node, old),
		forbidden("metadata.labels[crr.apps.kruise.io/node-name]"))

	acquired := old.DeepCopy()
	acquired.Annotations = map[string]string{v1alpha1.ContainerRecreateRequestUnreadyAcquiredKey: "t1"}
	expectErrors(t, ValidateContainerRecreateRequestUpdate(acquired, old))
	changed := acquired.DeepCopy()
	changed.Annotations[v1alpha1.ContainerRecreateRequestUnreadyAcquiredKey] = "t2"
	expectErrors(t, ValidateContainerRecreateRequestUpdate(changed, acquired),
		forbidden("metadata.annotations[crr.apps.kruise.io/unready-acquired]"))
}
