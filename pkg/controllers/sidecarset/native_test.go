package sidecarset

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
)

func withNative(ss *apps.SidecarSet, image string) *apps.SidecarSet {
	always := corev1.ContainerRestartPolicyAlways
	ss.Spec.InitContainers = []apps.SidecarContainer{{Container: corev1.Container{Name: "proxy", Image: image, RestartPolicy: &always}}}
	return ss
}

// A native sidecar counts in the hash: changing its image shows the pod as not
// updated (status updatedPods), and since it is not upgraded in place, the pod is
// named as one to recreate rather than marked updated with the old sidecar running.
func TestNativeSidecarChange(t *testing.T) {
	v1 := withNative(newSidecarSet("log:v1", false), "proxy:v1")
	pod := injectedPod(t, "web-0", v1)
	always := corev1.ContainerRestartPolicyAlways
	pod.Spec.InitContainers = []corev1.Container{{Name: "proxy", Image: "proxy:v1", RestartPolicy: &always}}
	for _, a := range []string{pub.SidecarSetHashAnnotation, pub.SidecarSetHashWithoutImageAnnotation} {
		spec := sidecarset.UpgradeSpecs(pod, a)["mesh"]
		spec.SidecarList = []string{"log", "proxy"}
		if err := sidecarset.SetUpgradeSpec(pod, a, spec); err != nil {
			t.Fatal(err)
		}
	}
	if s := classify(pod, mustTarget(t, v1), nil); !s.updated {
		t.Fatalf("before: %+v, want updated", s)
	}
	v2 := withNative(newSidecarSet("log:v1", false), "proxy:v2")
	s := classify(pod, mustTarget(t, v2), nil)
	if s.updated || s.inPlace {
		t.Errorf("native sidecar image changed: updated=%v inPlace=%v, want neither", s.updated, s.inPlace)
	}
	if st := computeStatus(1, []podStatus{s}, "rev", 0); st.UpdatedPods != 0 || st.MatchedPods != 1 {
		t.Errorf("status matched %d updated %d, want 1 and 0", st.MatchedPods, st.UpdatedPods)
	}
	if p := planRollout(v2, []podStatus{s}); len(p.upgrade) != 0 || len(p.blocked) != 1 {
		t.Errorf("plan upgrade %v blocked %q, want the pod named for recreation", names(p.upgrade), p.blocked)
	}
}
