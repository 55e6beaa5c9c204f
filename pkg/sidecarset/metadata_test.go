package sidecarset

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

func TestPatchPodMetadata(t *testing.T) {
	cases := []struct {
		name, current string
		policy        apps.SidecarSetPatchPolicyType
		patch, want   string
	}{
		{"retain keeps the pod's", "pod", apps.SidecarSetRetainPatchPolicy, "ss", "pod"},
		{"retain adds a missing one", "", apps.SidecarSetRetainPatchPolicy, "ss", "ss"},
		{"overwrite replaces", "pod", apps.SidecarSetOverwritePatchPolicy, "ss", "ss"},
		{"merge merges objects", `{"a":1,"b":1}`, apps.SidecarSetMergePatchJSONPatchPolicy, `{"b":2,"c":3}`, `{"a":1,"b":2,"c":3}`},
		{"merge null deletes", `{"a":1,"b":1}`, apps.SidecarSetMergePatchJSONPatchPolicy, `{"b":null}`, `{"a":1}`},
		{"merge adds a missing one", "", apps.SidecarSetMergePatchJSONPatchPolicy, `{"b":2}`, `{"b":2}`},
		{"merge keeps a value that is no object", "plain", apps.SidecarSetMergePatchJSONPatchPolicy, `{"b":2}`, "plain"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{}}}
			if c.current != "" {
				pod.Annotations["k"] = c.current
			}
			PatchPodMetadata(pod, []apps.SidecarSetPatchPodMetadata{{PatchPolicy: c.policy, Annotations: map[string]string{"k": c.patch}}})
			if got := pod.Annotations["k"]; got != c.want {
				t.Errorf("k = %q, want %q", got, c.want)
			}
		})
	}
}
