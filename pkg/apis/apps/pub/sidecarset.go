package pub

import "strings"

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
