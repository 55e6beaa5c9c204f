package sidecarset

import (
	"regexp"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/fieldpath"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// SidecarEnv is the env of sidecar sc injected into pod, by OpenKruise's rules:
// IS_INJECTED; the vars it takes from the pod's own containers (appContainers):
// transferEnv, and the vars each shared mount's subPathExpr references (the sidecar
// resolves the same subpath only with them); then its own env. A var the sidecar
// defines itself wins over one of the same name taken from the pod. Taken vars come
// first so that the sidecar's own values can refer to them as $(NAME).
func SidecarEnv(sc *apps.SidecarContainer, pod *corev1.Pod, appContainers []corev1.Container, shared []corev1.VolumeMount) []corev1.EnvVar {
	own := map[string]bool{pub.SidecarInjectedEnv: true}
	for _, e := range sc.Env {
		own[e.Name] = true
	}
	env := []corev1.EnvVar{{Name: pub.SidecarInjectedEnv, Value: "true"}}
	add := func(e corev1.EnvVar) {
		if !own[e.Name] && !hasEnv(env, e.Name) {
			env = append(env, *e.DeepCopy())
		}
	}
	for _, e := range transferredEnv(sc.TransferEnv, pod, appContainers) {
		add(e)
	}
	for _, e := range subPathExprEnv(shared, appContainers) {
		add(e)
	}
	for _, e := range sc.Env {
		if e.Name != pub.SidecarInjectedEnv {
			env = append(env, *e.DeepCopy())
		}
	}
	return env
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
			if e := findEnv(src.Env, n); e != nil && !hasEnv(out, n) {
				out = append(out, *e)
			}
		}
	}
	return out
}

// subPathExprRef matches a $(NAME) reference in a subPathExpr.
var subPathExprRef = regexp.MustCompile(`\$\(([-._a-zA-Z][-._a-zA-Z0-9]*)\)`)

// subPathExprEnv are the vars the subPathExpr of the shared mounts reference, taken
// from the container whose mount it is (the first that mounts the path).
func subPathExprEnv(shared []corev1.VolumeMount, appContainers []corev1.Container) []corev1.EnvVar {
	var out []corev1.EnvVar
	for _, m := range shared {
		if m.SubPathExpr == "" {
			continue
		}
		owner := mountOwner(appContainers, m)
		if owner == nil {
			continue
		}
		for _, ref := range subPathExprRef.FindAllStringSubmatch(m.SubPathExpr, -1) {
			if e := findEnv(owner.Env, ref[1]); e != nil && !hasEnv(out, ref[1]) {
				out = append(out, *e)
			}
		}
	}
	return out
}

func mountOwner(containers []corev1.Container, m corev1.VolumeMount) *corev1.Container {
	for i := range containers {
		for _, cm := range containers[i].VolumeMounts {
			if cm.MountPath == m.MountPath && cm.Name == m.Name {
				return &containers[i]
			}
		}
	}
	return nil
}

func findEnv(env []corev1.EnvVar, name string) *corev1.EnvVar {
	for i := range env {
		if env[i].Name == name {
			return &env[i]
		}
	}
	return nil
}

func hasEnv(env []corev1.EnvVar, name string) bool { return findEnv(env, name) != nil }

func findContainer(containers []corev1.Container, name string) *corev1.Container {
	for i := range containers {
		if containers[i].Name == name {
			return &containers[i]
		}
	}
	return nil
}
