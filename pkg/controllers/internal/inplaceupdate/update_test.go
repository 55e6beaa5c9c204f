package inplaceupdate

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

func sidecarAndMain() (*corev1.PodTemplateSpec, *corev1.PodTemplateSpec) {
	oldTmpl := template(map[string]string{"app": "demo"}, nil,
		container("main", "app:1"),
		container("sidecar", "proxy:1", priority("10")),
	)
	newTmpl := oldTmpl.DeepCopy()
	newTmpl.Spec.Containers[0].Image = "app:2"
	newTmpl.Spec.Containers[1].Image = "proxy:2"
	newTmpl.Labels["team"] = "blue"
	return oldTmpl, newTmpl
}

func TestPrepare(t *testing.T) {
	oldTmpl, newTmpl := sidecarAndMain()
	spec := CalculateSpec(oldTmpl, newTmpl, "rev-2")
	pod := runningPod(oldTmpl)
	before := pod.DeepCopy()

	got, err := Prepare(pod, spec, "", t0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, pod); diff != "" {
		t.Fatalf("Prepare modified its input (-before +after):\n%s", diff)
	}

	// One object carries all of it: first batch (sidecar) image, revision label, the
	// template's label, the state.
	if got.Spec.Containers[1].Image != "proxy:2" || got.Spec.Containers[0].Image != "app:1" {
		t.Errorf("images = %s, %s; want app:1 (next batch), proxy:2", got.Spec.Containers[0].Image, got.Spec.Containers[1].Image)
	}
	if got.Labels[pub.ControllerRevisionHashLabelKey] != "rev-2" || got.Labels["team"] != "blue" {
		t.Errorf("labels = %v", got.Labels)
	}
	state, err := GetState(got)
	if err != nil {
		t.Fatal(err)
	}
	want := &State{
		Revision:               "rev-2",
		UpdateTimestamp:        t0,
		LastContainerStatuses:  map[string]ContainerStatus{"sidecar": {ImageID: "id-proxy:1"}},
		UpdateImages:           true,
		NextContainerImages:    map[string]string{"main": "app:2"},
		PreCheckBeforeNext:     &PreCheckBeforeNext{ContainersRequiredReady: []string{"sidecar"}},
		ContainerBatchesRecord: []ContainerBatch{{Timestamp: t0, Containers: []string{"sidecar"}}},
	}
	if diff := cmp.Diff(want, state); diff != "" {
		t.Errorf("state (-want +got):\n%s", diff)
	}
	if _, ok := got.Annotations[pub.InPlaceUpdateGraceKey]; ok {
		t.Error("grace annotation set without a grace period")
	}
	// Nothing else of the pod changed.
	got.Spec.Containers[1].Image = "proxy:1"
	delete(got.Labels, "team")
	got.Labels[pub.ControllerRevisionHashLabelKey] = "rev-1"
	delete(got.Annotations, pub.InPlaceUpdateStateKey)
	if len(got.Annotations) == 0 {
		got.Annotations = nil
	}
	if diff := cmp.Diff(before, got); diff != "" {
		t.Errorf("Prepare changed more (-before +after):\n%s", diff)
	}
}

func TestPrepareCases(t *testing.T) {
	tests := []struct {
		name          string
		tmpl          *corev1.PodTemplateSpec
		spec          *UpdateSpec
		revisionLabel string
		check         func(t *testing.T, got *corev1.Pod, state *State)
		wantErr       bool
	}{{
		name:          "custom revision label",
		tmpl:          template(nil, nil, container("main", "app:1")),
		spec:          &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{"main": "app:2"}},
		revisionLabel: "apps.kruise.io/revision",
		check: func(t *testing.T, got *corev1.Pod, state *State) {
			if got.Labels["apps.kruise.io/revision"] != "rev-2" || got.Labels[pub.ControllerRevisionHashLabelKey] != "rev-1" {
				t.Errorf("labels = %v", got.Labels)
			}
		},
	}, {
		name: "env from metadata: label written, restart recorded for the daemon",
		tmpl: template(map[string]string{"version": "1"}, nil, container("main", "app:1", "V=label:version"), container("other", "o:1")),
		spec: &UpdateSpec{Revision: "rev-2", UpdateEnvFromMetadata: true,
			ContainerRefMetadata: map[string]metav1.ObjectMeta{"main": {Labels: map[string]string{"version": "2"}}}},
		check: func(t *testing.T, got *corev1.Pod, state *State) {
			if got.Labels["version"] != "2" {
				t.Errorf("label version = %q, want 2", got.Labels["version"])
			}
			if !state.UpdateEnvFromMetadata || state.UpdateImages || len(state.LastContainerStatuses) != 0 {
				t.Errorf("state = %+v", state)
			}
			if diff := cmp.Diff([]ContainerBatch{{Timestamp: t0, Containers: []string{"main"}}}, state.ContainerBatchesRecord); diff != "" {
				t.Errorf("batches (-want +got):\n%s", diff)
			}
		},
	}, {
		name: "grace period: no spec change, spec waits in the annotation",
		tmpl: template(nil, nil, container("main", "app:1")),
		spec: &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{"main": "app:2"}, GraceSeconds: 30},
		check: func(t *testing.T, got *corev1.Pod, state *State) {
			if got.Spec.Containers[0].Image != "app:1" {
				t.Error("image changed during the grace period")
			}
			grace, err := GetGraceSpec(got)
			if err != nil || grace == nil || grace.ContainerImages["main"] != "app:2" || grace.GraceSeconds != 30 {
				t.Errorf("grace spec = %+v, %v", grace, err)
			}
			if got.Labels[pub.ControllerRevisionHashLabelKey] != "rev-2" || state.Revision != "rev-2" || len(state.ContainerBatchesRecord) != 0 {
				t.Errorf("labels %v state %+v", got.Labels, state)
			}
		},
	}, {
		name:    "unknown container",
		tmpl:    template(nil, nil, container("main", "app:1")),
		spec:    &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{"nope": "x:2"}},
		wantErr: true,
	}, {
		name:    "nil spec",
		tmpl:    template(nil, nil, container("main", "app:1")),
		wantErr: true,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := runningPod(tt.tmpl)
			before := pod.DeepCopy()
			got, err := Prepare(pod, tt.spec, tt.revisionLabel, t0)
			if diff := cmp.Diff(before, pod); diff != "" {
				t.Fatalf("Prepare modified its input:\n%s", diff)
			}
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			state, err := GetState(got)
			if err != nil || state == nil {
				t.Fatalf("state = %v, %v", state, err)
			}
			tt.check(t, got, state)
		})
	}
}

// TestBatchesEndToEnd walks a two-batch update through the pure functions.
func TestBatchesEndToEnd(t *testing.T) {
	oldTmpl, newTmpl := sidecarAndMain()
	pod := runningPod(oldTmpl)

	pod, err := Prepare(pod, CalculateSpec(oldTmpl, newTmpl, "rev-2"), "", t0)
	if err != nil {
		t.Fatal(err)
	}
	if next, err := PrepareNext(pod, "", t0); next != nil || err != nil {
		t.Fatalf("PrepareNext before the sidecar switched = %v, %v; want nil", next != nil, err)
	}
	runtimeSwitch(pod, false)
	if c, n := CheckCompleted(pod); c || n {
		t.Fatalf("sidecar switched, not ready: CheckCompleted = %v, %v", c, n)
	}
	runtimeSwitch(pod, true)
	if c, n := CheckCompleted(pod); c || !n {
		t.Fatalf("sidecar ready: CheckCompleted = %v, %v; want next batch", c, n)
	}
	before := pod.DeepCopy()
	pod2, err := PrepareNext(pod, "", t1)
	if err != nil || pod2 == nil {
		t.Fatalf("PrepareNext = %v, %v", pod2, err)
	}
	if diff := cmp.Diff(before, pod); diff != "" {
		t.Fatalf("PrepareNext modified its input:\n%s", diff)
	}
	if pod2.Spec.Containers[0].Image != "app:2" {
		t.Errorf("main image = %s, want app:2", pod2.Spec.Containers[0].Image)
	}
	state, _ := GetState(pod2)
	wantBatches := []ContainerBatch{{Timestamp: t0, Containers: []string{"sidecar"}}, {Timestamp: t1, Containers: []string{"main"}}}
	if diff := cmp.Diff(wantBatches, state.ContainerBatchesRecord); diff != "" {
		t.Errorf("batches (-want +got):\n%s", diff)
	}
	if state.NextContainerImages != nil || state.PreCheckBeforeNext != nil {
		t.Errorf("next batch left in state: %+v", state)
	}
	wantLast := map[string]ContainerStatus{"sidecar": {ImageID: "id-proxy:1"}, "main": {ImageID: "id-app:1"}}
	if diff := cmp.Diff(wantLast, state.LastContainerStatuses); diff != "" {
		t.Errorf("lastContainerStatuses (-want +got):\n%s", diff)
	}
	if c, _ := CheckCompleted(pod2); c {
		t.Fatal("completed before main switched")
	}
	runtimeSwitch(pod2, true)
	if c, n := CheckCompleted(pod2); !c || n {
		t.Fatalf("all switched and ready: CheckCompleted = %v, %v", c, n)
	}
}

func TestPrepareNextGrace(t *testing.T) {
	tmpl := template(map[string]string{"app": "demo"}, nil, container("main", "app:1"))
	spec := &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{"main": "app:2"},
		MetaDataPatch: &MetadataPatch{Labels: map[string]string{"team": "blue"}}, GraceSeconds: 30}
	pod, err := Prepare(runningPod(tmpl), spec, "", t0)
	if err != nil {
		t.Fatal(err)
	}

	if left := GraceRemaining(pod, metav1.NewTime(t0.Add(10500*time.Millisecond))); left != 20*time.Second {
		t.Errorf("GraceRemaining after 10.5s = %v, want 20s (rounded up)", left)
	}
	if got, err := PrepareNext(pod, "", t1); got != nil || err != nil {
		t.Fatalf("PrepareNext during the grace = %v, %v; want nil", got, err)
	}
	after := metav1.NewTime(t0.Add(30 * time.Second))
	if left := GraceRemaining(pod, after); left != 0 {
		t.Errorf("GraceRemaining at the end = %v", left)
	}
	got, err := PrepareNext(pod, "", after)
	if err != nil || got == nil {
		t.Fatalf("PrepareNext after the grace = %v, %v", got, err)
	}
	if got.Spec.Containers[0].Image != "app:2" || got.Labels["team"] != "blue" {
		t.Errorf("spec not applied: image %s labels %v", got.Spec.Containers[0].Image, got.Labels)
	}
	if _, ok := got.Annotations[pub.InPlaceUpdateGraceKey]; ok {
		t.Error("grace annotation kept")
	}
	state, _ := GetState(got)
	if !state.UpdateTimestamp.Equal(&t0) || len(state.ContainerBatchesRecord) != 1 || state.LastContainerStatuses["main"].ImageID != "id-app:1" {
		t.Errorf("state = %+v", state)
	}

	// The revision moved on during the grace: drop the stale spec, change nothing else.
	pod.Labels[pub.ControllerRevisionHashLabelKey] = "rev-3"
	got, err = PrepareNext(pod, "", after)
	if err != nil || got == nil {
		t.Fatalf("PrepareNext on a stale grace = %v, %v", got, err)
	}
	if _, ok := got.Annotations[pub.InPlaceUpdateGraceKey]; ok || got.Spec.Containers[0].Image != "app:1" {
		t.Errorf("stale grace: annotation kept or image changed")
	}
}
