package pub

import (
	"math"
	"strconv"
)

// Container launch priority: containers of a pod start in priority order, highest
// first. The pod webhook gives each container an env var read from a key of the pod's
// barrier ConfigMap; the kubelet cannot start a container whose key is missing, and a
// controller adds the keys one priority at a time as the containers before become ready.
const (
	// ContainerLaunchOrdered, as the value of ContainerLaunchPriorityKey, starts the
	// containers in list order.
	ContainerLaunchOrdered = "Ordered"
	// ContainerLaunchBarrierEnv is the env var that holds a container back.
	ContainerLaunchBarrierEnv = "KRUISE_CONTAINER_BARRIER"

	// MinContainerPriority and MaxContainerPriority bound KRUISE_CONTAINER_PRIORITY.
	MinContainerPriority = -math.MaxInt32
	MaxContainerPriority = math.MaxInt32
)

// ContainerLaunchBarrierConfigMap is the name of a pod's barrier ConfigMap.
func ContainerLaunchBarrierConfigMap(pod string) string { return pod + "-barrier" }

// ContainerLaunchBarrierKey is the key that releases containers of one priority.
func ContainerLaunchBarrierKey(priority int32) string {
	return "p_" + strconv.FormatInt(int64(priority), 10)
}
