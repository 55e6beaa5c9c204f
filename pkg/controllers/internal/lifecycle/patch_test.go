package lifecycle

import (
	"encoding/json"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podpatch"
)

func TestPatchBytes(t *testing.T) {
	hook := &pub.LifecycleHook{LabelsHandler: map[string]string{blockLabel: "true"}, FinalizersHandler: []string{blockFin}}
	tests := []struct {
		name string
		pod  *corev1.Pod
		step Step
	}{
		{"label and annotation", pod(pub.LifecycleStateNormal), Step{To: pub.LifecycleStatePreparingDelete}},
		{"first label on a pod", pod(""), Step{To: pub.LifecycleStateNormal}},
		{"rehook adds finalizers", pod(pub.LifecycleStateUpdated, func(p *corev1.Pod) { p.Finalizers = []string{"other.io/keep"} }),
			Step{To: pub.LifecycleStatePreparingUpdate, Rehook: hook}},
		{"condition and Ready", pod(pub.LifecycleStateNormal, withGate), Step{To: pub.LifecycleStatePreparingUpdate, MarkNotReady: true}},
		{"condition back to True", pod(pub.LifecycleStateUpdating, withGate, heldBy(msgUpdate)), Step{To: pub.LifecycleStateUpdated}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newPod, _ := tt.step.Apply(tt.pod, t1)
			if newPod == nil {
				t.Fatal("no change")
			}
			patch, err := podpatch.Bytes(tt.pod, newPod)
			if err != nil || patch == nil {
				t.Fatalf("podpatch.Bytes = %s, %v", patch, err)
			}
			var m map[string]map[string]any
			if err := json.Unmarshal(patch, &m); err != nil {
				t.Fatal(err)
			}
			if m["metadata"]["uid"] != "uid-1" {
				t.Errorf("patch without uid: %s", patch)
			}
			// Applying the patch to the old pod gives the new one.
			oldJSON, _ := json.Marshal(tt.pod)
			patched, err := strategicpatch.StrategicMergePatch(oldJSON, patch, &corev1.Pod{})
			if err != nil {
				t.Fatalf("apply %s: %v", patch, err)
			}
			var got corev1.Pod
			if err := json.Unmarshal(patched, &got); err != nil {
				t.Fatal(err)
			}
			gotJSON, _ := json.Marshal(lifecycleFields(&got))
			wantJSON, _ := json.Marshal(lifecycleFields(newPod))
			if string(gotJSON) != string(wantJSON) {
				t.Errorf("patch %s gives\n%s\nwant\n%s", patch, gotJSON, wantJSON)
			}
		})
	}
	if patch, err := podpatch.Bytes(pod(pub.LifecycleStateNormal), pod(pub.LifecycleStateNormal)); patch != nil || err != nil {
		t.Errorf("podpatch.Bytes of equal pods = %s, %v", patch, err)
	}
}

// lifecycleFields are the fields a lifecycle step changes.
func lifecycleFields(pod *corev1.Pod) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Labels: pod.Labels, Annotations: pod.Annotations, Finalizers: pod.Finalizers},
		Status:     corev1.PodStatus{Conditions: pod.Status.Conditions},
	}
}
