package imagesync

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagepuller"
)

var (
	t0  = time.Date(2025, 1, 2, 3, 4, 5, 600_000_000, time.UTC)
	t0s = metav1.NewTime(t0.Truncate(time.Second))
	t1  = t0.Add(10 * time.Second)
	t1s = metav1.NewTime(t1.Truncate(time.Second))
)

func TestBuildStatus(t *testing.T) {
	earlier := metav1.NewTime(t0.Add(-time.Minute).Truncate(time.Second))
	cases := []struct {
		name    string
		spec    *v1beta1.NodeImageSpec
		stored  *v1beta1.NodeImageStatus
		running map[string]imagepuller.Status
		notes   map[string]string
		want    v1beta1.NodeImageStatus
	}{
		{
			name: "nothing to pull: first sync at once",
			spec: &v1beta1.NodeImageSpec{}, stored: &v1beta1.NodeImageStatus{},
			want: v1beta1.NodeImageStatus{FirstSyncStatus: &v1beta1.SyncStatus{SyncAt: t1s, Status: v1beta1.SyncStatusSucceeded}},
		},
		{
			name:   "waiting, pulling and succeeded are counted; times in seconds",
			spec:   spec(map[string][]v1beta1.ImageTagSpec{"app": {{Tag: "a"}, {Tag: "b"}, {Tag: "c"}}}),
			stored: &v1beta1.NodeImageStatus{},
			running: map[string]imagepuller.Status{
				"app:a": {Phase: imagepuller.PhaseWaiting},
				"app:b": {Phase: imagepuller.PhasePulling, StartTime: t0, Attempts: 1},
				"app:c": {Phase: imagepuller.PhaseSucceeded, Progress: 100, StartTime: t0, CompletionTime: t1, ImageID: "sha256:c"},
			},
			// pulling counts both unfinished tags, waiting the one without a worker yet
			want: v1beta1.NodeImageStatus{Desired: 3, Pulling: 2, Waiting: 1, Succeeded: 1, ImageStatuses: map[string]v1beta1.ImageStatus{"app": {Tags: []v1beta1.ImageTagStatus{
				{Tag: "a", Phase: v1beta1.ImagePhaseWaiting},
				{Tag: "b", Phase: v1beta1.ImagePhasePulling, StartTime: &t0s},
				{Tag: "c", Phase: v1beta1.ImagePhaseSucceeded, Progress: 100, StartTime: &t0s, CompletionTime: &t1s, ImageID: "sha256:c"},
			}}}},
		},
		{
			name:   "all finished, one failed: firstSyncStatus Failed naming it",
			spec:   spec(map[string][]v1beta1.ImageTagSpec{"app": {{Tag: "a"}}, "bad": {{Tag: "x"}}}),
			stored: &v1beta1.NodeImageStatus{},
			running: map[string]imagepuller.Status{
				"app:a": {Phase: imagepuller.PhaseSucceeded, Progress: 100, ImageID: "sha256:a"},
				"bad:x": {Phase: imagepuller.PhaseFailed, Message: "pull failed after 4 attempts: boom"},
			},
			notes: map[string]string{"bad:x": "pull secret ns/s not found, pulling without it"},
			want: v1beta1.NodeImageStatus{Desired: 2, Succeeded: 1, Failed: 1,
				ImageStatuses: map[string]v1beta1.ImageStatus{
					"app": {Tags: []v1beta1.ImageTagStatus{{Tag: "a", Phase: v1beta1.ImagePhaseSucceeded, Progress: 100, ImageID: "sha256:a"}}},
					"bad": {Tags: []v1beta1.ImageTagStatus{{Tag: "x", Phase: v1beta1.ImagePhaseFailed,
						Message: "pull secret ns/s not found, pulling without it; pull failed after 4 attempts: boom"}}},
				},
				FirstSyncStatus: &v1beta1.SyncStatus{SyncAt: t1s, Status: v1beta1.SyncStatusFailed, Message: "1 image(s) failed to pull: bad:x"}},
		},
		{
			name: "restart: finished tags keep their stored status, firstSyncStatus is kept, removed tags go",
			spec: spec(map[string][]v1beta1.ImageTagSpec{"app": {{Tag: "a", Version: 1}, {Tag: "b", Version: 1}}}),
			stored: &v1beta1.NodeImageStatus{Desired: 3, Succeeded: 1, Pulling: 2,
				ImageStatuses: map[string]v1beta1.ImageStatus{
					"app": {Tags: []v1beta1.ImageTagStatus{
						{Tag: "a", Phase: v1beta1.ImagePhaseSucceeded, Version: 1, ImageID: "sha256:a", CompletionTime: &t0s},
						{Tag: "b", Phase: v1beta1.ImagePhasePulling, Version: 1, StartTime: &earlier},
					}},
					"gone": {Tags: []v1beta1.ImageTagStatus{{Tag: "x", Phase: v1beta1.ImagePhasePulling}}},
				},
				FirstSyncStatus: &v1beta1.SyncStatus{SyncAt: t0s, Status: v1beta1.SyncStatusSucceeded}},
			// b is pulled again: it keeps the start time of the first attempt
			running: map[string]imagepuller.Status{"app:b": {Phase: imagepuller.PhasePulling, Version: 1, StartTime: t1}},
			want: v1beta1.NodeImageStatus{Desired: 2, Succeeded: 1, Pulling: 1,
				ImageStatuses: map[string]v1beta1.ImageStatus{"app": {Tags: []v1beta1.ImageTagStatus{
					{Tag: "a", Phase: v1beta1.ImagePhaseSucceeded, Version: 1, ImageID: "sha256:a", CompletionTime: &t0s},
					{Tag: "b", Phase: v1beta1.ImagePhasePulling, Version: 1, StartTime: &earlier},
				}}},
				FirstSyncStatus: &v1beta1.SyncStatus{SyncAt: t0s, Status: v1beta1.SyncStatusSucceeded}},
		},
		{
			name:    "a new version replaces a finished stored status (Waiting until the puller reports)",
			spec:    spec(map[string][]v1beta1.ImageTagSpec{"app": {{Tag: "a", Version: 2}}}),
			stored:  tagStatuses("app", v1beta1.ImageTagStatus{Tag: "a", Phase: v1beta1.ImagePhaseFailed, Version: 1, Message: "old"}),
			running: map[string]imagepuller.Status{"app:a": {Phase: imagepuller.PhaseFailed, Version: 1}},
			want: v1beta1.NodeImageStatus{Desired: 1, Pulling: 1, Waiting: 1, ImageStatuses: map[string]v1beta1.ImageStatus{"app": {Tags: []v1beta1.ImageTagStatus{
				{Tag: "a", Phase: v1beta1.ImagePhaseWaiting, Version: 2},
			}}}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := BuildStatus(Wanted(tc.spec), tc.stored, tc.running, tc.notes, t1)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("status (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFirstSyncMessageIsBounded(t *testing.T) {
	var failed []string
	for _, c := range "abcdefgh" {
		failed = append(failed, "img:"+string(c))
	}
	s := firstSync(failed, t1)
	want := "8 image(s) failed to pull: img:a, img:b, img:c, img:d, img:e and 3 more"
	if s.Status != v1beta1.SyncStatusFailed || s.Message != want {
		t.Fatalf("got %s %q, want Failed %q", s.Status, s.Message, want)
	}
}
