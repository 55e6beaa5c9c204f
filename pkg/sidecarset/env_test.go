package sidecarset

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

func envNames(env []corev1.EnvVar) map[string]string {
	out := map[string]string{}
	for _, e := range env {
		v := e.Value
		if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil {
			v = "field:" + e.ValueFrom.FieldRef.FieldPath
		}
		out[e.Name] = v
	}
	return out
}

// SidecarEnv: OpenKruise's rules for the env of an injected sidecar.
func TestSidecarEnv(t *testing.T) {
	podName := corev1.EnvVar{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}
	app := corev1.Container{Name: "app", Env: []corev1.EnvVar{{Name: "LOG_LEVEL", Value: "debug"}, {Name: "REGION", Value: "eu"}, podName},
		VolumeMounts: []corev1.VolumeMount{{Name: "logs", MountPath: "/var/log/app", SubPathExpr: "$(POD_NAME)/$(REGION)"}}}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0"}, Spec: corev1.PodSpec{Containers: []corev1.Container{app}}}
	shared := apps.ShareVolumePolicy{Type: apps.ShareVolumePolicyEnabled}
	cases := []struct {
		name string
		sc   apps.SidecarContainer
		want map[string]string
	}{
		{name: "transferEnv copies the app's var",
			sc:   apps.SidecarContainer{TransferEnv: []apps.TransferEnvVar{{SourceContainerName: "app", EnvName: "LOG_LEVEL"}}},
			want: map[string]string{pub.SidecarInjectedEnv: "true", "LOG_LEVEL": "debug"}},
		{name: "the sidecar's own var wins over a transferEnv of the same name",
			sc: apps.SidecarContainer{Container: corev1.Container{Env: []corev1.EnvVar{{Name: "LOG_LEVEL", Value: "info"}}},
				TransferEnv: []apps.TransferEnvVar{{SourceContainerName: "app", EnvNames: []string{"LOG_LEVEL", "REGION"}}}},
			want: map[string]string{pub.SidecarInjectedEnv: "true", "LOG_LEVEL": "info", "REGION": "eu"}},
		{name: "a shared subPathExpr mount brings the vars it references",
			sc:   apps.SidecarContainer{ShareVolumePolicy: shared},
			want: map[string]string{pub.SidecarInjectedEnv: "true", "POD_NAME": "field:metadata.name", "REGION": "eu"}},
		{name: "the sidecar's own var wins over a subPathExpr var too",
			sc:   apps.SidecarContainer{Container: corev1.Container{Env: []corev1.EnvVar{{Name: "REGION", Value: "us"}}}, ShareVolumePolicy: shared},
			want: map[string]string{pub.SidecarInjectedEnv: "true", "POD_NAME": "field:metadata.name", "REGION": "us"}},
		{name: "no sharing, no subPathExpr vars",
			sc:   apps.SidecarContainer{},
			want: map[string]string{pub.SidecarInjectedEnv: "true"}},
		{name: "a mount at a path the sidecar mounts itself is not shared, nor its vars",
			sc: apps.SidecarContainer{ShareVolumePolicy: shared, Container: corev1.Container{
				VolumeMounts: []corev1.VolumeMount{{Name: "own", MountPath: "/var/log/app"}}}},
			want: map[string]string{pub.SidecarInjectedEnv: "true"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mounts := SharedMounts(&c.sc, pod.Spec.Containers)
			got := SidecarEnv(&c.sc, pod, pod.Spec.Containers, mounts)
			if g := envNames(got); !reflect.DeepEqual(g, c.want) {
				t.Errorf("env = %v, want %v", g, c.want)
			}
			if len(got) != len(c.want) {
				t.Errorf("env %v has duplicates", got)
			}
		})
	}
}

func TestSharedDevices(t *testing.T) {
	apps1 := []corev1.Container{
		{Name: "db", VolumeDevices: []corev1.VolumeDevice{{Name: "data", DevicePath: "/dev/xvda"}, {Name: "wal", DevicePath: "/dev/xvdb"}}},
		{Name: "replica", VolumeDevices: []corev1.VolumeDevice{{Name: "other", DevicePath: "/dev/xvda"}}},
	}
	enabled := &apps.ShareVolumePolicy{Type: apps.ShareVolumePolicyEnabled}
	cases := []struct {
		name string
		sc   apps.SidecarContainer
		want []string
	}{
		{name: "unset shares none", sc: apps.SidecarContainer{}},
		{name: "disabled shares none", sc: apps.SidecarContainer{ShareVolumeDevicePolicy: &apps.ShareVolumePolicy{Type: apps.ShareVolumePolicyDisabled}}},
		{name: "enabled shares each path once, the first container's", sc: apps.SidecarContainer{ShareVolumeDevicePolicy: enabled},
			want: []string{"data", "wal"}},
		{name: "a path the sidecar uses itself stays its own", sc: apps.SidecarContainer{ShareVolumeDevicePolicy: enabled,
			Container: corev1.Container{VolumeDevices: []corev1.VolumeDevice{{Name: "mine", DevicePath: "/dev/xvdb"}}}},
			want: []string{"data"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, d := range SharedDevices(&c.sc, apps1) {
				got = append(got, d.Name)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("shared = %v, want %v", got, c.want)
			}
		})
	}
}
