package podwebhook

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/fieldpath"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// sidecarContainer builds the container a sidecar becomes in pod: the SidecarSet's
// container with IS_INJECTED, the env it copies from the pod's own containers (first,
// so its own env can refer to them), its mounts under their pod volume names, and,
// with shareVolumePolicy enabled, the mounts of the pod's own containers.
func sidecarContainer(sc *apps.SidecarContainer, pod *corev1.Pod, appContainers []corev1.Container) corev1.Container {
	c := *sc.Container.DeepCopy()
	env := []corev1.EnvVar{{Name: pub.SidecarInjectedEnv, Value: "true"}}
	env = append(env, transferredEnv(sc.TransferEnv, pod, appContainers)...)
	for _, e := range c.Env {
		if !hasEnv(env, e.Name) {
			env = append(env, e)
		}
	}
	c.Env = env
	for i := range c.VolumeMounts {
		c.VolumeMounts[i].Name = pub.PodVolumeName(c.VolumeMounts[i].Name)
	}
	for i := range c.VolumeDevices {
		c.VolumeDevices[i].Name = pub.PodVolumeName(c.VolumeDevices[i].Name)
	}
	if sc.ShareVolumePolicy.Type == apps.ShareVolumePolicyEnabled {
		c.VolumeMounts = append(c.VolumeMounts, sharedMounts(c.VolumeMounts, appContainers)...)
	}
	return c
}

// transferredEnv copies the named env vars of the source containers. A source
// container or variable the pod does not have is left out, as OpenKruise does.
func transferredEnv(transfers []apps.TransferEnvVar, pod *corev1.Pod, appContainers []corev1.Container) []corev1.EnvVar {
	var out []corev1.EnvVar
	for _, t := range transfers {
		source := t.SourceContainerName
		if from := t.SourceContainerNameFrom; from != nil && from.FieldRef != nil {
			v, err := fieldpath.ExtractFieldPathAsString(pod, from.FieldRef.FieldPath)
			if err != nil {
				continue
			}
			source = v
		}
		src := findContainer(appContainers, source)
		if src == nil {
			continue
		}
		names := t.EnvNames
		if t.EnvName != "" {
			names = append([]string{t.EnvName}, names...)
		}
		for _, n := range names {
			for _, e := range src.Env {
				if e.Name == n && !hasEnv(out, n) {
					out = append(out, *e.DeepCopy())
				}
			}
		}
	}
	return out
}

// sharedMounts are the mounts of the pod's own containers a sidecar does not have yet
// (by volume and path), at most one per path.
func sharedMounts(own []corev1.VolumeMount, appContainers []corev1.Container) []corev1.VolumeMount {
	paths := map[string]bool{}
	for _, m := range own {
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

func hasEnv(env []corev1.EnvVar, name string) bool {
	for _, e := range env {
		if e.Name == name {
			return true
		}
	}
	return false
}

func findContainer(containers []corev1.Container, name string) *corev1.Container {
	for i := range containers {
		if containers[i].Name == name {
			return &containers[i]
		}
	}
	return nil
}
