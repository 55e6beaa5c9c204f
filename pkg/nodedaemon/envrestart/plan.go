package envrestart

import (
	"encoding/json"
	"reflect"

	corev1 "k8s.io/api/core/v1"
)

// Running is the container the runtime runs for a pod container: the one the pod status
// names, with the env the runtime created it with.
type Running struct {
	ContainerID string
	Env         map[string]string
}

// Restart is a container to stop.
type Restart struct {
	Name, ContainerID string
}

// Plan is what to do for one pod.
type Plan struct {
	// Restart lists the containers to stop: in the update's batches, running with
	// stale metadata env.
	Restart []Restart
	// Report, when not empty, is the RuntimeContainerMetaKey value to write.
	Report string
}

// PlanPod decides, for a pod whose in-place update asks for env from metadata, which
// containers to restart and what to report. running holds, by container name, what the
// runtime runs for the containers reading metadata; a container missing from it is
// starting or was not read yet. Nothing is reported while a restart is due or any
// container reading metadata is not known: the report must describe every one of them,
// and one written before a restart would be replaced right after (a wasted write).
func PlanPod(pod *corev1.Pod, running map[string]Running) (Plan, error) {
	batched, err := envUpdate(pod)
	if err != nil || batched == nil {
		return Plan{}, err
	}
	var (
		plan     Plan
		report   RuntimeContainerMetaSet
		complete = true
	)
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		if !readsMetadata(c) {
			continue
		}
		r, ok := running[c.Name]
		cs := containerStatus(pod, c.Name)
		if !ok || cs == nil || r.ContainerID != cs.ContainerID {
			complete = false
			continue
		}
		have := EnvFromMetadataHash(c, func(name string) string { return r.Env[name] })
		if batched[c.Name] && have != ExpectedEnvFromMetadataHash(pod, c) {
			plan.Restart = append(plan.Restart, Restart{Name: c.Name, ContainerID: r.ContainerID})
			continue
		}
		report.Containers = append(report.Containers, RuntimeContainerMeta{
			Name: c.Name, ContainerID: r.ContainerID, RestartCount: cs.RestartCount,
			Hashes: RuntimeContainerHashes{ExtractedEnvFromMetadataHash: have},
		})
	}
	if len(plan.Restart) > 0 || !complete || len(report.Containers) == 0 {
		return plan, nil
	}
	if current, ok := pod.Annotations[RuntimeContainerMetaKey]; ok {
		var stored RuntimeContainerMetaSet
		if json.Unmarshal([]byte(current), &stored) == nil && reflect.DeepEqual(stored, report) {
			return plan, nil
		}
	}
	b, err := json.Marshal(report)
	if err != nil {
		return plan, err
	}
	plan.Report = string(b)
	return plan, nil
}

func containerStatus(pod *corev1.Pod, name string) *corev1.ContainerStatus {
	for i := range pod.Status.ContainerStatuses {
		if pod.Status.ContainerStatuses[i].Name == name {
			return &pod.Status.ContainerStatuses[i]
		}
	}
	return nil
}
