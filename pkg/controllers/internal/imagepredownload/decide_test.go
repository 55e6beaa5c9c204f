package imagepredownload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

func TestDecide(t *testing.T) {
	rolling := func(edit func(*Rollout)) Rollout {
		r := Rollout{InPlace: true, CurrentRevision: "r1", UpdateRevision: "r2",
			Replicas: 6, Partition: 3, MaxUnavailable: 1, UpdatedReady: 0, NewImages: []string{"nginx:2"}}
		if edit != nil {
			edit(&r)
		}
		return r
	}
	tests := []struct {
		name string
		in   Rollout
		want Action
	}{
		{"partitioned in-place rollout: create", rolling(nil), Create},
		{"rollout complete: clean up", rolling(func(r *Rollout) { r.CurrentRevision = "r2" }), Cleanup},
		{"recreate updates pull at creation anyway", rolling(func(r *Rollout) { r.InPlace = false }), Keep},
		{"at most 3 replicas: not worth it", rolling(func(r *Rollout) { r.Replicas = 3 }), Keep},
		{"4 replicas: worth it", rolling(func(r *Rollout) { r.Replicas = 4 }), Create},
		{"every pod in one batch", rolling(func(r *Rollout) { r.Partition, r.MaxUnavailable = 0, 6 }), Keep},
		{"one batch but a partition holds some back", rolling(func(r *Rollout) { r.MaxUnavailable = 6 }), Create},
		{"no image changed (env only)", rolling(func(r *Rollout) { r.NewImages = nil }), Keep},
		{"too few updated ready pods yet", rolling(func(r *Rollout) { r.MinUpdatedReady, r.UpdatedReady = 2, 1 }), Keep},
		{"minimum of updated ready pods reached", rolling(func(r *Rollout) { r.MinUpdatedReady, r.UpdatedReady = 2, 2 }), Create},
		{"image-predownload-ignored: clean up", rolling(func(r *Rollout) { r.Ignored = true }), Cleanup},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Decide(tt.in); got != tt.want {
				t.Errorf("Decide = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestChangedImages(t *testing.T) {
	spec := func(images ...string) *corev1.PodSpec {
		s := &corev1.PodSpec{}
		for i, img := range images {
			s.Containers = append(s.Containers, corev1.Container{Name: string(rune('a' + i)), Image: img})
		}
		return s
	}
	if diff := cmp.Diff([]string{"y:2", "z:1"}, ChangedImages(spec("x:1", "y:1"), spec("x:1", "y:2", "z:1"))); diff != "" {
		t.Errorf("ChangedImages (-want +got):\n%s", diff)
	}
	if got := ChangedImages(spec("x:1"), spec("x:1")); got != nil {
		t.Errorf("no change: %v", got)
	}
}

func TestSettings(t *testing.T) {
	ann := map[string]string{pub.ImagePreDownloadMinUpdatedReadyPodsKey: "2", pub.ImagePreDownloadParallelismKey: "3",
		pub.ImagePreDownloadTimeoutSecondsKey: "60"}
	minReady, par, timeout := Settings(nil, ann)
	if minReady != 2 || par == nil || par.IntValue() != 3 || timeout == nil || *timeout != 60 {
		t.Errorf("from annotations: %d %v %v", minReady, par, timeout)
	}
	s := &pub.InPlaceUpdateStrategy{ImagePreDownloadMinUpdatedReadyPods: ptr.To[int32](1),
		ImagePreDownloadParallelism: ptr.To(intstr.FromString("50%")), ImagePreDownloadTimeoutSeconds: ptr.To[int32](30)}
	minReady, par, timeout = Settings(s, ann)
	if minReady != 1 || par.String() != "50%" || *timeout != 30 {
		t.Errorf("fields win over annotations: %d %v %v", minReady, par, *timeout)
	}
	minReady, par, timeout = Settings(nil, nil)
	if minReady != 0 || par != nil || timeout != nil {
		t.Errorf("nothing set: %d %v %v", minReady, par, timeout)
	}
}

// apps.kruise.io/image-predownload-ignored is read, whatever its value, on the workload
// (annotation or label) and on the update revision (label, OpenKruise's place).
func TestIgnored(t *testing.T) {
	obj := func(annotations, labels map[string]string) metav1.Object {
		return &metav1.ObjectMeta{Annotations: annotations, Labels: labels}
	}
	key := pub.ImagePreDownloadIgnoredKey
	tests := []struct {
		name               string
		workload, revision metav1.Object
		want               bool
	}{
		{"neither", obj(nil, nil), obj(nil, nil), false},
		{"workload annotation", obj(map[string]string{key: "true"}, nil), obj(nil, nil), true},
		{"workload label, any value", obj(nil, map[string]string{key: ""}), obj(nil, nil), true},
		{"revision label", obj(nil, nil), obj(nil, map[string]string{key: "true"}), true},
		{"revision annotation is not read", obj(nil, nil), obj(map[string]string{key: "true"}, nil), false},
		{"no revision", obj(nil, nil), nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Ignored(tt.workload, tt.revision); got != tt.want {
				t.Errorf("Ignored = %v, want %v", got, tt.want)
			}
		})
	}
}
