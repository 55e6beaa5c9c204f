package v1alpha1

// Annotations that steer PodUnavailableBudget protection (OpenKruise's keys).
const (
	// PubProtectOperationAnnotation, on a budget, lists the operations it guards,
	// comma separated, of DELETE, EVICT and UPDATE; unset means all three.
	PubProtectOperationAnnotation = "kruise.io/pub-protect-operations"
	// PubProtectTotalReplicasAnnotation, on a budget, is the number of replicas it
	// counts when its pods' workload has none to read.
	PubProtectTotalReplicasAnnotation = "pub.kruise.io/protect-total-replicas"
	// PodPubNoProtectionAnnotation "true" on a pod lets every disruption of it through.
	PodPubNoProtectionAnnotation = "pub.kruise.io/no-protect"
)

// PubIgnoredPodSelectorAnnotation carries spec.ignoredPodSelector of v1beta1 (JSON)
// on a v1alpha1 budget, which has no such field.
const PubIgnoredPodSelectorAnnotation = "pub.kruise.io/ignored-pod-selector"
