package containerlaunchpriority

import (
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// barrierKeyPrefix starts every key pub.ContainerLaunchBarrierKey makes.
const barrierKeyPrefix = "p_"

// containerPriorities returns the launch priority of each container that waits on the
// pod's barrier (read back from the key its barrier env names), and whether any does.
func containerPriorities(pod *corev1.Pod) (map[string]int32, bool) {
	out := map[string]int32{}
	for _, c := range pod.Spec.Containers {
		for _, e := range c.Env {
			if e.Name != pub.ContainerLaunchBarrierEnv || e.ValueFrom == nil || e.ValueFrom.ConfigMapKeyRef == nil {
				continue
			}
			p, err := strconv.ParseInt(strings.TrimPrefix(e.ValueFrom.ConfigMapKeyRef.Key, barrierKeyPrefix), 10, 32)
			if err == nil {
				out[c.Name] = int32(p)
			}
		}
	}
	return out, len(out) > 0
}

// releasedKeys returns the barrier keys the pod's containers may have now: the highest
// priority's at once, and each lower one once every container of every higher priority
// is ready. Keys once released stay (a container that restarts later must not wait).
func releasedKeys(pod *corev1.Pod, priorities map[string]int32) []string {
	levels := map[int32][]string{}
	for name, p := range priorities {
		levels[p] = append(levels[p], name)
	}
	order := make([]int32, 0, len(levels))
	for p := range levels {
		order = append(order, p)
	}
	sort.Slice(order, func(i, j int) bool { return order[i] > order[j] })

	ready := map[string]bool{}
	for _, s := range pod.Status.ContainerStatuses {
		ready[s.Name] = s.Ready
	}
	var keys []string
	for _, p := range order {
		keys = append(keys, pub.ContainerLaunchBarrierKey(p))
		for _, name := range levels[p] {
			if !ready[name] {
				return keys
			}
		}
	}
	return keys
}
