package fakecri

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// The labels and annotations kubelet puts on sandboxes and containers. Clients of the
// runtime (the node daemon, crictl users) find a pod's containers by them, so the
// simulator sets the same ones.
const (
	LabelPodName       = "io.kubernetes.pod.name"
	LabelPodNamespace  = "io.kubernetes.pod.namespace"
	LabelPodUID        = "io.kubernetes.pod.uid"
	LabelContainerName = "io.kubernetes.container.name"

	AnnotationContainerHash            = "io.kubernetes.container.hash"
	AnnotationContainerRestartCount    = "io.kubernetes.container.restartCount"
	AnnotationTerminationMessagePath   = "io.kubernetes.container.terminationMessagePath"
	AnnotationTerminationMessagePolicy = "io.kubernetes.container.terminationMessagePolicy"
	AnnotationPodTerminationGrace      = "io.kubernetes.pod.terminationGracePeriod"
	AnnotationPreStopHandler           = "io.kubernetes.container.preStopHandler"

	// ContainerIDPrefix is the scheme of containerIDs in pod status ("fakecri://<id>").
	ContainerIDPrefix = RuntimeName + "://"
)

func sandboxConfig(pod *corev1.Pod, attempt uint32) *runtimeapi.PodSandboxConfig {
	labels := make(map[string]string, len(pod.Labels)+3)
	for k, v := range pod.Labels {
		labels[k] = v
	}
	labels[LabelPodName] = pod.Name
	labels[LabelPodNamespace] = pod.Namespace
	labels[LabelPodUID] = string(pod.UID)
	annotations := make(map[string]string, len(pod.Annotations))
	for k, v := range pod.Annotations {
		annotations[k] = v
	}
	hostname := pod.Name
	if pod.Spec.Hostname != "" {
		hostname = pod.Spec.Hostname
	}
	return &runtimeapi.PodSandboxConfig{
		Metadata:     &runtimeapi.PodSandboxMetadata{Name: pod.Name, Namespace: pod.Namespace, Uid: string(pod.UID), Attempt: attempt},
		Hostname:     hostname,
		LogDirectory: fmt.Sprintf("/var/log/pods/%s_%s_%s", pod.Namespace, pod.Name, pod.UID),
		Labels:       labels,
		Annotations:  annotations,
	}
}

func containerConfig(pod *corev1.Pod, c *corev1.Container, attempt uint32, restartCount int32) *runtimeapi.ContainerConfig {
	cfg := &runtimeapi.ContainerConfig{
		Metadata:   &runtimeapi.ContainerMetadata{Name: c.Name, Attempt: attempt},
		Image:      &runtimeapi.ImageSpec{Image: c.Image, UserSpecifiedImage: c.Image},
		Command:    c.Command,
		Args:       c.Args,
		WorkingDir: c.WorkingDir,
		LogPath:    fmt.Sprintf("%s/%d.log", c.Name, attempt),
		Labels: map[string]string{
			LabelPodName:       pod.Name,
			LabelPodNamespace:  pod.Namespace,
			LabelPodUID:        string(pod.UID),
			LabelContainerName: c.Name,
		},
		Annotations: map[string]string{
			AnnotationContainerHash:            containerHash(c),
			AnnotationContainerRestartCount:    strconv.Itoa(int(restartCount)),
			AnnotationTerminationMessagePath:   c.TerminationMessagePath,
			AnnotationTerminationMessagePolicy: string(c.TerminationMessagePolicy),
			AnnotationPodTerminationGrace:      strconv.FormatInt(terminationGrace(pod), 10),
		},
	}
	if c.Lifecycle != nil && c.Lifecycle.PreStop != nil {
		if b, err := json.Marshal(c.Lifecycle.PreStop); err == nil {
			cfg.Annotations[AnnotationPreStopHandler] = string(b)
		}
	}
	for _, e := range resolveEnv(pod, c) {
		cfg.Envs = append(cfg.Envs, &runtimeapi.KeyValue{Key: e.Key, Value: []byte(e.Value)})
	}
	return cfg
}

// containerHash stands for kubelet's hash of the container spec: it changes when the
// spec does.
func containerHash(c *corev1.Container) string {
	b, err := json.Marshal(c)
	if err != nil {
		return "0"
	}
	h := fnv.New32a()
	_, _ = h.Write(b)
	return strconv.FormatUint(uint64(h.Sum32()), 16)
}

// terminationGrace is the pod's grace period in seconds (kubelet's default 30).
func terminationGrace(pod *corev1.Pod) int64 {
	if g := pod.Spec.TerminationGracePeriodSeconds; g != nil && *g >= 0 {
		return *g
	}
	return 30
}

// restartCountOf is the restart count a container was started as; pod status shows it
// while the container is the current one.
func restartCountOf(c *Container) int32 {
	if n, err := strconv.Atoi(c.Annotations[AnnotationContainerRestartCount]); err == nil && n >= 0 {
		return int32(n)
	}
	return int32(c.Attempt)
}
