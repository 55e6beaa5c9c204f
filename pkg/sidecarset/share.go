package sidecarset

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// SharedMounts are the mounts of the pod's own containers that sidecar sc gets with
// shareVolumePolicy enabled: those at a path the sidecar does not mount itself, at
// most one per path (the first container's).
func SharedMounts(sc *apps.SidecarContainer, appContainers []corev1.Container) []corev1.VolumeMount {
	if sc.ShareVolumePolicy.Type != apps.ShareVolumePolicyEnabled {
		return nil
	}
	paths := map[string]bool{}
	for _, m := range sc.VolumeMounts {
		paths[m.MountPath] = true
	}
	var out []corev1.VolumeMount
	for _, app := range appContainers {
		for _, m := range app.VolumeMounts {
			if paths[m.MountPath] {
				continue
			}
			paths[m.MountPath] = true
			out = append(out, m)
		}
	}
	return out
}

// SharedDevices are the volumeDevices of the pod's own containers that sidecar sc gets
// with shareVolumeDevicePolicy enabled (OpenKruise v1.9): those at a device path the
// sidecar does not use itself, at most one per path (the first container's).
func SharedDevices(sc *apps.SidecarContainer, appContainers []corev1.Container) []corev1.VolumeDevice {
	if p := sc.ShareVolumeDevicePolicy; p == nil || p.Type != apps.ShareVolumePolicyEnabled {
		return nil
	}
	paths := map[string]bool{}
	for _, d := range sc.VolumeDevices {
		paths[d.DevicePath] = true
	}
	var out []corev1.VolumeDevice
	for _, app := range appContainers {
		for _, d := range app.VolumeDevices {
			if paths[d.DevicePath] {
				continue
			}
			paths[d.DevicePath] = true
			out = append(out, d)
		}
	}
	return out
}
