package podwebhook

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The injected sidecar's env as OpenKruise gives it: its own LOG_LEVEL wins over the
// transferEnv of the same name, and the shared mount's subPathExpr brings POD_NAME.
func TestInjectSidecarEnv(t *testing.T) {
	ss := storedSidecarSet(t, []byte(`{"apiVersion":"apps.kruise.io/v1alpha1","kind":"SidecarSet",
		"metadata":{"name":"log"},"spec":{"selector":{"matchLabels":{"app":"web"}},
		"containers":[{"name":"log","image":"log:v1","env":[{"name":"LOG_LEVEL","value":"info"}],
			"shareVolumePolicy":{"type":"enabled"},
			"transferEnv":[{"sourceContainerName":"app","envName":"LOG_LEVEL"}]}]}}`))
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "app:v1",
			Env: []corev1.EnvVar{{Name: "LOG_LEVEL", Value: "debug"},
				{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}},
			VolumeMounts: []corev1.VolumeMount{{Name: "logs", MountPath: "/var/log/app", SubPathExpr: "$(POD_NAME)"}}}},
			Volumes: []corev1.Volume{{Name: "logs"}}}}
	_, got := admit(t, newWebhook(false, nil, ss), "default", pod)
	log := findContainer(got.Spec.Containers, "log")
	if log == nil {
		t.Fatalf("log not injected: %v", containerNames(got.Spec.Containers))
	}
	n := 0
	for _, e := range log.Env {
		if e.Name == "LOG_LEVEL" {
			n++
		}
	}
	if e := env(*log, "LOG_LEVEL"); e == nil || e.Value != "info" || n != 1 {
		t.Errorf("log env = %+v, want its own LOG_LEVEL=info once", log.Env)
	}
	if e := env(*log, "POD_NAME"); e == nil || e.ValueFrom == nil || e.ValueFrom.FieldRef.FieldPath != "metadata.name" {
		t.Errorf("log env = %+v, want POD_NAME from the app (its subPathExpr refers to it)", log.Env)
	}
	if len(log.VolumeMounts) != 1 || log.VolumeMounts[0].SubPathExpr != "$(POD_NAME)" {
		t.Errorf("log mounts = %+v, want the shared subPathExpr mount", log.VolumeMounts)
	}
}
