package pub

// Well-known labels, annotations and condition types Kruise workloads put on pods.
const (
	// ControllerRevisionHashLabelKey carries the revision a pod was created from.
	ControllerRevisionHashLabelKey = "controller-revision-hash"
	// SpecifiedDeleteKey marks a pod the owner should delete first.
	SpecifiedDeleteKey = "apps.kruise.io/specified-delete"
	// CloneSetInstanceIDKey ties a CloneSet pod to its PVCs.
	CloneSetInstanceIDKey = "apps.kruise.io/cloneset-instance-id"
	// KruisePodReadyConditionType is the readiness gate Kruise adds to pods it manages.
	KruisePodReadyConditionType = "KruisePodReady"
	// ContainerLaunchPriorityKey asks for containers to start in list order.
	ContainerLaunchPriorityKey = "apps.kruise.io/container-launch-priority"
	// ContainerPriorityEnv sets a container's launch/update priority.
	ContainerPriorityEnv = "KRUISE_CONTAINER_PRIORITY"
	// SidecarSetCustomVersionLabel labels a SidecarSet, and the ControllerRevisions
	// recorded from it, with a version of the user's choosing that
	// injectionStrategy.revision.customVersion can name.
	SidecarSetCustomVersionLabel = "apps.kruise.io/sidecarset-custom-version"
	// DeletionProtectionKey is the label that protects an object from deletion.
	DeletionProtectionKey = "policy.kruise.io/delete-protection"
	// DeletionProtectionTypeAlways forbids deletion outright.
	DeletionProtectionTypeAlways = "Always"
	// DeletionProtectionTypeCascading forbids deletion while the object still owns active children.
	DeletionProtectionTypeCascading = "Cascading"
)
