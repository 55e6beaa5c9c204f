package manager

import (
	corev1 "k8s.io/api/core/v1"
)

// compactPod gives the cached pod's slices backing arrays of their own length and
// lets podIPs share the string of the podIP it repeats. The
// protobuf decoder appends repeated fields one element at a time, so five pod
// conditions (a pod with a readiness gate has five or six) sit in an array of
// eight: three unused 120-byte elements on every cached pod, held as long as the
// pod is. The values are unchanged (a nil or empty slice stays as it is): only
// where equal data lives.
func compactPod(pod *corev1.Pod) {
	pod.OwnerReferences = exactLen(pod.OwnerReferences)
	pod.Finalizers = exactLen(pod.Finalizers)
	s := &pod.Spec
	s.InitContainers = exactLen(s.InitContainers)
	s.Containers = exactLen(s.Containers)
	s.ReadinessGates = exactLen(s.ReadinessGates)
	for _, cs := range [][]corev1.Container{s.InitContainers, s.Containers} {
		for i := range cs {
			cs[i].Env = exactLen(cs[i].Env)
			cs[i].Ports = exactLen(cs[i].Ports)
		}
	}
	st := &pod.Status
	st.Conditions = exactLen(st.Conditions)
	st.InitContainerStatuses = exactLen(st.InitContainerStatuses)
	st.ContainerStatuses = exactLen(st.ContainerStatuses)
	st.PodIPs = exactLen(st.PodIPs)
	st.HostIPs = exactLen(st.HostIPs)
	// The list's first entry is podIP itself, decoded as a second copy (host IPs
	// are shared by the string table instead: they repeat across the node's pods).
	if len(st.PodIPs) > 0 && st.PodIPs[0].IP == st.PodIP {
		st.PodIPs[0].IP = st.PodIP
	}
}

// exactLen returns s itself when its backing array has no spare room, else an exact-size copy.
func exactLen[T any](s []T) []T {
	if cap(s) == len(s) || len(s) == 0 {
		return s
	}
	return append(make([]T, 0, len(s)), s...)
}
