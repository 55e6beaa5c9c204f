package inplaceupdate

import (
	"encoding/json"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
)

// updatedPod is a one-container pod whose spec was just patched from app:1 to app:2.
func updatedPod(t *testing.T) *corev1.Pod {
	t.Helper()
	pod := runningPod(template(nil, nil, container("main", "app:1")))
	pod, err := Prepare(pod, &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{"main": "app:2"}}, "", t0)
	if err != nil {
		t.Fatal(err)
	}
	return pod
}

func TestCheckCompleted(t *testing.T) {
	tests := []struct {
		name          string
		pod           func(t *testing.T) *corev1.Pod
		wantCompleted bool
		wantNext      bool
		wantUpdating  bool
	}{{
		name:          "no state",
		pod:           func(*testing.T) *corev1.Pod { return runningPod(template(nil, nil, container("main", "app:1"))) },
		wantCompleted: true,
	}, {
		name:         "patched, runtime not switched yet",
		pod:          updatedPod,
		wantUpdating: true,
	}, {
		name: "imageID changed, ready",
		pod: func(t *testing.T) *corev1.Pod {
			p := updatedPod(t)
			p.Status.ContainerStatuses[0].ImageID = "id-app:2"
			p.Status.ContainerStatuses[0].Image = "docker.io/library/app:2" // runtimes report the full name
			return p
		},
		wantCompleted: true,
	}, {
		name: "imageID changed, status image not comparable, ready",
		pod: func(t *testing.T) *corev1.Pod {
			p := updatedPod(t)
			p.Status.ContainerStatuses[0].ImageID = "sha256:new"
			p.Status.ContainerStatuses[0].Image = "sha256:abcdef"
			return p
		},
		wantCompleted: true,
	}, {
		name: "imageID changed, not ready",
		pod: func(t *testing.T) *corev1.Pod {
			p := updatedPod(t)
			p.Status.ContainerStatuses[0].ImageID = "id-app:2"
			p.Status.ContainerStatuses[0].Ready = false
			return p
		},
	}, {
		name: "no imageID (kwok): status image is the spec image, ready",
		pod: func(t *testing.T) *corev1.Pod {
			p := runningPod(template(nil, nil, container("main", "app:1")))
			p.Status.ContainerStatuses[0].ImageID = ""
			p, _ = Prepare(p, &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{"main": "app:2"}}, "", t0)
			p.Status.ContainerStatuses[0].Image = "app:2"
			return p
		},
		wantCompleted: true,
	}, {
		name: "no imageID (kwok): status image still old",
		pod: func(t *testing.T) *corev1.Pod {
			p := runningPod(template(nil, nil, container("main", "app:1")))
			p.Status.ContainerStatuses[0].ImageID = ""
			p, _ = Prepare(p, &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{"main": "app:2"}}, "", t0)
			return p
		},
		wantUpdating: true,
	}, {
		name: "same digest under a new tag: imageID unchanged, status image is the spec image",
		pod: func(t *testing.T) *corev1.Pod {
			p := updatedPod(t)
			p.Status.ContainerStatuses[0].Image = "app:2"
			return p
		},
		wantCompleted: true,
	}, {
		name: "container status missing",
		pod: func(t *testing.T) *corev1.Pod {
			p := updatedPod(t)
			p.Status.ContainerStatuses = nil
			return p
		},
		wantUpdating: true,
	}, {
		name: "grace period running",
		pod: func(t *testing.T) *corev1.Pod {
			p := runningPod(template(nil, nil, container("main", "app:1")))
			p, _ = Prepare(p, &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{"main": "app:2"}, GraceSeconds: 5}, "", t0)
			return p
		},
		wantUpdating: true,
	}, {
		name: "first batch done and ready, second waits",
		pod: func(t *testing.T) *corev1.Pod {
			oldTmpl, newTmpl := sidecarAndMain()
			p, _ := Prepare(runningPod(oldTmpl), CalculateSpec(oldTmpl, newTmpl, "rev-2"), "", t0)
			runtimeSwitch(p, true)
			return p
		},
		wantNext:     true,
		wantUpdating: true,
	}, {
		name: "broken state",
		pod: func(t *testing.T) *corev1.Pod {
			p := updatedPod(t)
			p.Annotations[pub.InPlaceUpdateStateKey] = "{"
			return p
		},
		wantUpdating: true,
	}, {
		name: "finished long ago, container crashed since: unready, not updating",
		pod: func(t *testing.T) *corev1.Pod {
			p := updatedPod(t)
			runtimeSwitch(p, false)
			return p
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := tt.pod(t)
			completed, next := CheckCompleted(pod)
			if completed != tt.wantCompleted || next != tt.wantNext {
				t.Errorf("CheckCompleted = %v, %v; want %v, %v", completed, next, tt.wantCompleted, tt.wantNext)
			}
			if got := IsInPlaceUpdating(pod); got != tt.wantUpdating {
				t.Errorf("IsInPlaceUpdating = %v, want %v", got, tt.wantUpdating)
			}
		})
	}
}

// TestCheckCompletedEnvRestart: a label read through env changed; the container is
// switched when the node daemon reports its current containerID with the new env hash.
func TestCheckCompletedEnvRestart(t *testing.T) {
	tmpl := template(map[string]string{"version": "1"}, nil, container("main", "app:1", "V=label:version"))
	spec := &UpdateSpec{Revision: "rev-2", UpdateEnvFromMetadata: true,
		ContainerRefMetadata: map[string]metav1.ObjectMeta{"main": {Labels: map[string]string{"version": "2"}}}}
	pod, err := Prepare(runningPod(tmpl), spec, "", t0)
	if err != nil {
		t.Fatal(err)
	}
	report := func(containerID string, hash uint64) {
		b, _ := json.Marshal(RuntimeContainerMetaSet{Containers: []RuntimeContainerMeta{{
			Name: "main", ContainerID: containerID, Hashes: RuntimeContainerHashes{ExtractedEnvFromMetadataHash: hash}}}})
		pod.Annotations[RuntimeContainerMetaKey] = string(b)
	}
	oldHash := EnvFromMetadataHash(&pod.Spec.Containers[0], func(string) string { return "1" })
	newHash := ExpectedEnvFromMetadataHash(pod, &pod.Spec.Containers[0])
	if oldHash == newHash {
		t.Fatal("hash does not depend on the value")
	}

	steps := []struct {
		name          string
		do            func()
		wantCompleted bool
	}{
		{"no report yet", func() {}, false},
		{"report of the old container", func() { report("cri://main-1", oldHash) }, false},
		{"restarted, report still of the old container", func() { pod.Status.ContainerStatuses[0].ContainerID = "cri://main-2" }, false},
		{"report of the new container with the new values", func() { report("cri://main-2", newHash) }, true},
		{"but not ready", func() { pod.Status.ContainerStatuses[0].Ready = false }, false},
	}
	for _, s := range steps {
		s.do()
		if c, _ := CheckCompleted(pod); c != s.wantCompleted {
			t.Errorf("%s: completed = %v, want %v", s.name, c, s.wantCompleted)
		}
	}
}

func TestFinish(t *testing.T) {
	tests := []struct {
		name        string
		gate        bool
		cond        *corev1.ConditionStatus
		wantChanged bool
	}{
		{"gate, condition False (grace path)", true, ptr(corev1.ConditionFalse), true},
		{"gate, condition True (no grace: no write)", true, ptr(corev1.ConditionTrue), false},
		{"gate, no condition", true, nil, true},
		{"no gate, no condition", false, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := updatedPod(t)
			runtimeSwitch(pod, true)
			if tt.gate {
				InjectReadinessGate(pod)
			}
			if tt.cond != nil {
				pod.Status.Conditions = []corev1.PodCondition{{Type: inPlaceUpdateReady, Status: *tt.cond, LastTransitionTime: t0}}
			}
			annotations := pod.DeepCopy().Annotations
			if got := Finish(pod, t1); got != tt.wantChanged {
				t.Errorf("Finish changed = %v, want %v", got, tt.wantChanged)
			}
			if c := podcondition.Find(pod.Status.Conditions, inPlaceUpdateReady); tt.wantChanged && (c == nil || c.Status != corev1.ConditionTrue || !c.LastTransitionTime.Equal(&t1)) {
				t.Errorf("condition = %+v", c)
			}
			if _, ok := pod.Annotations[pub.InPlaceUpdateStateKey]; !ok || len(pod.Annotations) != len(annotations) {
				t.Errorf("Finish touched annotations: %v", pod.Annotations)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
