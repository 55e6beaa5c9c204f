package imagesync

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagepuller"
)

func spec(images map[string][]v1beta1.ImageTagSpec) *v1beta1.NodeImageSpec {
	s := &v1beta1.NodeImageSpec{Images: map[string]v1beta1.ImageSpec{}}
	for name, tags := range images {
		s.Images[name] = v1beta1.ImageSpec{Tags: tags}
	}
	return s
}

func tagStatuses(image string, tags ...v1beta1.ImageTagStatus) *v1beta1.NodeImageStatus {
	return &v1beta1.NodeImageStatus{ImageStatuses: map[string]v1beta1.ImageStatus{image: {Tags: tags}}}
}

func keys(ws []Want) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Key)
	}
	return out
}

func TestWantedOrderAndRefs(t *testing.T) {
	s := spec(map[string][]v1beta1.ImageTagSpec{
		"ubuntu":                 {{Tag: "latest"}, {Tag: "22.04"}},
		"registry:5000/team/app": {{Tag: "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}},
		"busybox":                {{Tag: "1.36"}},
	})
	ws := Wanted(s)
	want := []string{"busybox:1.36", "registry:5000/team/app:sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "ubuntu:latest", "ubuntu:22.04"}
	if diff := cmp.Diff(want, keys(ws)); diff != "" {
		t.Fatalf("keys (-want +got):\n%s", diff)
	}
	if got := ws[1].Ref; got != "registry:5000/team/app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" {
		t.Errorf("digest tag ref = %q, want name@digest", got)
	}
	if got := ws[2].Ref; got != "ubuntu:latest" {
		t.Errorf("ref = %q", got)
	}
}

func TestPlanRestartSafety(t *testing.T) {
	s := spec(map[string][]v1beta1.ImageTagSpec{"app": {
		{Tag: "done", Version: 2},
		{Tag: "failed", Version: 1},
		{Tag: "pulling", Version: 1},
		{Tag: "waiting", Version: 1},
		{Tag: "bumped", Version: 3},
		{Tag: "new", Version: 1},
		{Tag: "held", Version: 1},
	}})
	stored := tagStatuses("app",
		v1beta1.ImageTagStatus{Tag: "done", Phase: v1beta1.ImagePhaseSucceeded, Version: 2},
		v1beta1.ImageTagStatus{Tag: "failed", Phase: v1beta1.ImagePhaseFailed, Version: 1},
		v1beta1.ImageTagStatus{Tag: "pulling", Phase: v1beta1.ImagePhasePulling, Version: 1},
		v1beta1.ImageTagStatus{Tag: "waiting", Phase: v1beta1.ImagePhaseWaiting, Version: 1},
		v1beta1.ImageTagStatus{Tag: "bumped", Phase: v1beta1.ImagePhaseSucceeded, Version: 2},
		v1beta1.ImageTagStatus{Tag: "held", Phase: v1beta1.ImagePhaseSucceeded, Version: 1},
		v1beta1.ImageTagStatus{Tag: "removed", Phase: v1beta1.ImagePhasePulling, Version: 1},
	)
	cases := []struct {
		name    string
		running map[string]imagepuller.Status
		want    []string
	}{
		{
			// a restarted daemon: finished tags stay, unfinished and changed ones are pulled
			name: "fresh daemon",
			want: []string{"app:pulling", "app:waiting", "app:bumped", "app:new"},
		},
		{
			// a task the puller holds for the spec version stays, finished or not
			name:    "puller holds tasks",
			running: map[string]imagepuller.Status{"app:held": {Phase: imagepuller.PhaseSucceeded, Version: 1}, "app:done": {Phase: imagepuller.PhaseSucceeded, Version: 1}},
			want:    []string{"app:pulling", "app:waiting", "app:bumped", "app:new", "app:held"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := keys(Plan(Wanted(s), stored, tc.running))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("planned (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTaskFor(t *testing.T) {
	w := Want{Key: "app:v1", Image: "app", Ref: "app:v1",
		Spec: &v1beta1.ImageSpec{SandboxConfig: &v1beta1.SandboxConfig{Labels: map[string]string{"a": "b"}}},
		Tag: &v1beta1.ImageTagSpec{Tag: "v1", Version: 4, ImagePullPolicy: v1beta1.PullAlways, PullPolicy: &v1beta1.ImageTagPullPolicy{
			TimeoutSeconds: ptr.To[int32](30), BackoffLimit: ptr.To[int32](0), ActiveDeadlineSeconds: ptr.To[int64](90),
		}}}
	auths := []*runtimeapi.AuthConfig{{Username: "u"}}
	got := TaskFor(w, auths)
	want := imagepuller.Task{Image: "app:v1", Version: 4, PullPolicy: imagepuller.PullAlways, Timeout: 30 * time.Second,
		BackoffLimit: ptr.To[int32](0), ActiveDeadline: 90 * time.Second, Auths: auths,
		SandboxConfig: &runtimeapi.PodSandboxConfig{Labels: map[string]string{"a": "b"}}}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b *runtimeapi.AuthConfig) bool { return a.GetUsername() == b.GetUsername() }),
		cmp.Comparer(func(a, b *runtimeapi.PodSandboxConfig) bool { return cmp.Equal(a.GetLabels(), b.GetLabels()) })); diff != "" {
		t.Fatalf("task (-want +got):\n%s", diff)
	}

	// Unset policy fields keep the puller's defaults (nil backoff limit = 3 retries).
	bare := TaskFor(Want{Ref: "app:v1", Spec: &v1beta1.ImageSpec{}, Tag: &v1beta1.ImageTagSpec{Tag: "v1"}}, nil)
	if bare.Timeout != 0 || bare.BackoffLimit != nil || bare.ActiveDeadline != 0 || bare.SandboxConfig != nil {
		t.Errorf("bare tag: want puller defaults, got %+v", bare)
	}
}
