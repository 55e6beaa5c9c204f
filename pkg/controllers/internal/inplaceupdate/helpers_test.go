package inplaceupdate

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

var (
	t0 = metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	t1 = metav1.NewTime(t0.Add(10 * time.Second))
)

// container builds a container; env entries are "NAME=value", "NAME=label:key" or
// "NAME=annotation:key" (the last two read pod metadata).
func container(name, image string, env ...string) corev1.Container {
	c := corev1.Container{Name: name, Image: image}
	for _, e := range env {
		var n, v string
		for i := range e {
			if e[i] == '=' {
				n, v = e[:i], e[i+1:]
				break
			}
		}
		switch {
		case len(v) > 6 && v[:6] == "label:":
			c.Env = append(c.Env, corev1.EnvVar{Name: n, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels['" + v[6:] + "']"}}})
		case len(v) > 11 && v[:11] == "annotation:":
			c.Env = append(c.Env, corev1.EnvVar{Name: n, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.annotations['" + v[11:] + "']"}}})
		default:
			c.Env = append(c.Env, corev1.EnvVar{Name: n, Value: v})
		}
	}
	return c
}

func priority(p string) string { return pub.ContainerPriorityEnv + "=" + p }

func template(labels, annotations map[string]string, cs ...corev1.Container) *corev1.PodTemplateSpec {
	return &corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: labels, Annotations: annotations},
		Spec:       corev1.PodSpec{Containers: cs, RestartPolicy: corev1.RestartPolicyAlways},
	}
}

// runningPod is a pod from tmpl whose containers all run and are ready, imageID
// "id-<image>".
func runningPod(tmpl *corev1.PodTemplateSpec) *corev1.Pod {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p-0", UID: "uid-1", ResourceVersion: "7",
			Labels: map[string]string{pub.ControllerRevisionHashLabelKey: "rev-1"}},
		Spec: *tmpl.Spec.DeepCopy(),
	}
	for k, v := range tmpl.Labels {
		pod.Labels[k] = v
	}
	for k, v := range tmpl.Annotations {
		if pod.Annotations == nil {
			pod.Annotations = map[string]string{}
		}
		pod.Annotations[k] = v
	}
	for _, c := range pod.Spec.Containers {
		pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, corev1.ContainerStatus{
			Name: c.Name, Image: c.Image, ImageID: "id-" + c.Image, Ready: true, ContainerID: "cri://" + c.Name + "-1",
		})
	}
	return pod
}

// runtimeSwitch makes the pod's status show every container running its spec image
// (new imageID, new containerID), with the given readiness.
func runtimeSwitch(pod *corev1.Pod, ready bool) {
	for i := range pod.Status.ContainerStatuses {
		cs := &pod.Status.ContainerStatuses[i]
		c := containerSpec(pod, cs.Name)
		if cs.Image != c.Image {
			cs.Image, cs.ImageID, cs.ContainerID = c.Image, "id-"+c.Image, cs.ContainerID+"x"
		}
		cs.Ready = ready
	}
}
