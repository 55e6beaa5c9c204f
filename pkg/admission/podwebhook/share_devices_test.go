package podwebhook

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// shareVolumeDevicePolicy enabled: the sidecar gets the app container's raw block
// device at the same path; without it, none.
func TestInjectSharedVolumeDevices(t *testing.T) {
	manifest := func(policy string) []byte {
		return []byte(`{"apiVersion":"apps.kruise.io/v1alpha1","kind":"SidecarSet",
		"metadata":{"name":"backup"},"spec":{"selector":{"matchLabels":{"app":"db"}},
		"containers":[{"name":"backup","image":"backup:v1"` + policy + `}]}}`)
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "db-0", Labels: map[string]string{"app": "db"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "db", Image: "db:v1",
			VolumeDevices: []corev1.VolumeDevice{{Name: "data", DevicePath: "/dev/xvda"}}}},
			Volumes: []corev1.Volume{{Name: "data"}}}}
	for _, c := range []struct {
		policy string
		want   int
	}{{`,"shareVolumeDevicePolicy":{"type":"enabled"}`, 1}, {`,"shareVolumeDevicePolicy":{"type":"disabled"}`, 0}, {"", 0}} {
		_, got := admit(t, newWebhook(false, nil, storedSidecarSet(t, manifest(c.policy))), "default", pod.DeepCopy())
		b := findContainer(got.Spec.Containers, "backup")
		if b == nil {
			t.Fatalf("backup not injected: %v", containerNames(got.Spec.Containers))
		}
		if len(b.VolumeDevices) != c.want || c.want == 1 && (b.VolumeDevices[0].Name != "data" || b.VolumeDevices[0].DevicePath != "/dev/xvda") {
			t.Errorf("policy %q: backup volumeDevices = %+v, want %d (data at /dev/xvda)", c.policy, b.VolumeDevices, c.want)
		}
	}
}
