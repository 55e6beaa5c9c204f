package podwebhook

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
)

// sidecarContainer builds the container a sidecar becomes in pod: the SidecarSet's
// container with the env sidecarset.SidecarEnv gives it, its mounts under their pod
// volume names, and, with shareVolumePolicy (shareVolumeDevicePolicy) enabled, the
// mounts (volumeDevices) of the pod's own containers.
func sidecarContainer(sc *apps.SidecarContainer, pod *corev1.Pod, appContainers []corev1.Container) corev1.Container {
	c := *sc.Container.DeepCopy()
	shared := sidecarset.SharedMounts(sc, appContainers)
	c.Env = sidecarset.SidecarEnv(sc, pod, appContainers, shared)
	for i := range c.VolumeMounts {
		c.VolumeMounts[i].Name = pub.PodVolumeName(c.VolumeMounts[i].Name)
	}
	for i := range c.VolumeDevices {
		c.VolumeDevices[i].Name = pub.PodVolumeName(c.VolumeDevices[i].Name)
	}
	c.VolumeMounts = append(c.VolumeMounts, shared...)
	c.VolumeDevices = append(c.VolumeDevices, sidecarset.SharedDevices(sc, appContainers)...)
	return c
}

// hotUpgradePair builds the two containers of a HotUpgrade sidecar: <name>-1 runs the
// sidecar and works, <name>-2 runs the empty image. Each reads its own and its
// partner's version from pod annotations, which versionAnnotations returns.
func hotUpgradePair(c corev1.Container, emptyImage string) (pair [2]corev1.Container, versionAnnotations map[string]string) {
	names := pub.HotUpgradeContainerNames(c.Name)
	versionAnnotations = map[string]string{}
	for i := range pair {
		pair[i] = *c.DeepCopy()
		pair[i].Name = names[i]
		pair[i].Env = append(pair[i].Env,
			annotationEnv(pub.SidecarSetVersionEnv, pub.SidecarSetVersionAnnotation(names[i])),
			annotationEnv(pub.SidecarSetVersionAltEnv, pub.SidecarSetVersionAltAnnotation(names[i])))
	}
	pair[1].Image = emptyImage
	// "1": the first version of the sidecar; "0": the empty image.
	versionAnnotations[pub.SidecarSetVersionAnnotation(names[0])] = "1"
	versionAnnotations[pub.SidecarSetVersionAltAnnotation(names[0])] = "0"
	versionAnnotations[pub.SidecarSetVersionAnnotation(names[1])] = "0"
	versionAnnotations[pub.SidecarSetVersionAltAnnotation(names[1])] = "1"
	return pair, versionAnnotations
}

func annotationEnv(name, annotation string) corev1.EnvVar {
	return corev1.EnvVar{Name: name, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{
		APIVersion: "v1", FieldPath: "metadata.annotations['" + annotation + "']",
	}}}
}

func findContainer(containers []corev1.Container, name string) *corev1.Container {
	for i := range containers {
		if containers[i].Name == name {
			return &containers[i]
		}
	}
	return nil
}

func hasEnv(env []corev1.EnvVar, name string) bool {
	for _, e := range env {
		if e.Name == name {
			return true
		}
	}
	return false
}
