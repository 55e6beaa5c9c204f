package sidecarset

import (
	"testing"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// An upgrade applies the SidecarSet's current patchPodMetadata to the pod, as
// OpenKruise does: MergePatchJson merges into the pod's value, Overwrite replaces it,
// Retain keeps what the pod has.
func TestUpgradePatchesPodMetadata(t *testing.T) {
	v1 := newSidecarSet("log:v1", false)
	pod := injectedPod(t, "web-0", v1)
	pod.Annotations["oom-score"] = `{"log":1}`
	pod.Annotations["owner"] = "team-a"
	pod.Annotations["kept"] = "pod"
	v2 := newSidecarSet("log:v2", false)
	v2.Spec.PatchPodMetadata = []apps.SidecarSetPatchPodMetadata{
		{PatchPolicy: apps.SidecarSetMergePatchJSONPatchPolicy, Annotations: map[string]string{"oom-score": `{"envoy":2}`}},
		{PatchPolicy: apps.SidecarSetOverwritePatchPolicy, Annotations: map[string]string{"owner": "team-b"}},
		{PatchPolicy: apps.SidecarSetRetainPatchPolicy, Annotations: map[string]string{"kept": "sidecarset", "new": "v"}},
	}
	next, err := upgrade(pod, mustTarget(t, v2), map[string]bool{"log": true}, now)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"oom-score": `{"envoy":2,"log":1}`, "owner": "team-b", "kept": "pod", "new": "v"}
	for k, v := range want {
		if got := next.Annotations[k]; got != v {
			t.Errorf("annotation %s = %q, want %q", k, got, v)
		}
	}
}
