package pub

import "strings"

// Annotations and env vars the SidecarSet injection and upgrade put on pods, as
// OpenKruise names them.
const (
	// SidecarSetHashAnnotation records, per SidecarSet name, the hash of the sidecars the
	// pod runs (JSON object of SidecarSetUpgradeSpec).
	SidecarSetHashAnnotation = "kruise.io/sidecarset-hash"
	// SidecarSetHashWithoutImageAnnotation is the same with images left out of the hash:
	// when only it still matches, an upgrade changes images alone and is done in place.
	SidecarSetHashWithoutImageAnnotation = "kruise.io/sidecarset-hash-without-image"
	// SidecarSetListAnnotation lists the SidecarSets injected into the pod, comma-separated.
	SidecarSetListAnnotation = "kruise.io/sidecarset-injected-list"
	// SidecarSetInPlaceUpdateStateKey records the in-place upgrade of a pod's sidecars.
	SidecarSetInPlaceUpdateStateKey = "kruise.io/sidecarset-inplace-update-state"
	// SidecarSetWorkingHotUpgradeContainer maps each HotUpgrade sidecar to the container
	// of its pair that works now (JSON object, e.g. {"envoy":"envoy-1"}).
	SidecarSetWorkingHotUpgradeContainer = "kruise.io/sidecarset-working-hotupgrade-container"

	// SidecarInjectedEnv marks a container as injected by a SidecarSet (value "true").
	SidecarInjectedEnv = "IS_INJECTED"
	// SidecarSetVersionEnv and SidecarSetVersionAltEnv tell a hot-upgraded container its
	// own version and its partner's, from the annotations below ("0": empty image).
	SidecarSetVersionEnv    = "SIDECARSET_VERSION"
	SidecarSetVersionAltEnv = "SIDECARSET_VERSION_ALT"
)

// SidecarSetVersionAnnotation holds the version a hot-upgraded container runs.
func SidecarSetVersionAnnotation(container string) string {
	return "version.sidecarset.kruise.io/" + container
}

// SidecarSetVersionAltAnnotation holds the version the partner of a hot-upgraded container runs.
func SidecarSetVersionAltAnnotation(container string) string {
	return "versionalt.sidecarset.kruise.io/" + container
}

// HotUpgradeContainerNames are the two containers a HotUpgrade sidecar runs as in a
// pod: they take turns being the working one, the other runs the empty image.
func HotUpgradeContainerNames(sidecar string) [2]string {
	return [2]string{sidecar + "-1", sidecar + "-2"}
}

// PodVolumeName is the name a SidecarSet volume (and the sidecars' mounts of it) gets
// in the pods it is injected into. Pod volume names are DNS labels, while OpenKruise's
// documented SidecarSets name volumes like files ("nginx.conf"): dots become dashes.
func PodVolumeName(name string) string {
	return strings.ReplaceAll(name, ".", "-")
}
