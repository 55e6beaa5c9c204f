package fakecri

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// resolveEnv computes a container's environment the way kubelet does for the sources a
// simulated node can know: literal values and the downward API fields of the pod
// (fieldRef). ConfigMap, Secret and resource references resolve to "" (the variable is
// still set), envFrom is not expanded, and $(VAR) references are left as written.
// Called at every container start, so a container started after a pod's labels or
// annotations changed sees the new values, as on a real node.
func resolveEnv(pod *corev1.Pod, c *corev1.Container) []EnvVar {
	env := make([]EnvVar, 0, len(c.Env))
	for _, e := range c.Env {
		value := e.Value
		if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil {
			value = podFieldValue(pod, e.ValueFrom.FieldRef.FieldPath)
		}
		env = append(env, EnvVar{Key: e.Name, Value: value})
	}
	return env
}

// podFieldValue resolves a downward API field path; unknown paths give "".
func podFieldValue(pod *corev1.Pod, path string) string {
	if key, ok := subscript(path, "metadata.labels"); ok {
		return pod.Labels[key]
	}
	if key, ok := subscript(path, "metadata.annotations"); ok {
		return pod.Annotations[key]
	}
	switch path {
	case "metadata.name":
		return pod.Name
	case "metadata.namespace":
		return pod.Namespace
	case "metadata.uid":
		return string(pod.UID)
	case "spec.nodeName":
		return pod.Spec.NodeName
	case "spec.serviceAccountName":
		return pod.Spec.ServiceAccountName
	case "status.podIP":
		return pod.Status.PodIP
	case "status.hostIP":
		return pod.Status.HostIP
	case "status.podIPs":
		ips := make([]string, 0, len(pod.Status.PodIPs))
		for _, ip := range pod.Status.PodIPs {
			ips = append(ips, ip.IP)
		}
		return strings.Join(ips, ",")
	case "status.hostIPs":
		ips := make([]string, 0, len(pod.Status.HostIPs))
		for _, ip := range pod.Status.HostIPs {
			ips = append(ips, ip.IP)
		}
		return strings.Join(ips, ",")
	}
	return ""
}

// subscript parses "<field>['key']" (the downward API form for one label or annotation).
func subscript(path, field string) (string, bool) {
	rest, ok := strings.CutPrefix(path, field+"['")
	if !ok {
		return "", false
	}
	return strings.CutSuffix(rest, "']")
}
