package sidecarsetconflict

import (
	"fmt"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// conflict is one thing two SidecarSets would both put into the same pod.
type conflict struct {
	// what and name identify the clash in the pod ("container" "envoy-1").
	what, name string
	other      string
	err        *field.Error
}

func (c conflict) key() string { return c.what + "/" + c.name + "/" + c.other }

// conflictsWith lists what ss (whose footprint is mine) would put into pods that
// other also injects into: a container of the same name, a volume of the same name
// but another definition, or an annotation that either overwrites. Errors sit at
// ss's own field paths and name the other SidecarSet.
func conflictsWith(ss *apps.SidecarSet, other footprint) []conflict {
	var out []conflict
	spec := field.NewPath("spec")
	lists := []struct {
		path     *field.Path
		sidecars []apps.SidecarContainer
	}{{spec.Child("initContainers"), ss.Spec.InitContainers}, {spec.Child("containers"), ss.Spec.Containers}}
	for _, l := range lists {
		for i, c := range l.sidecars {
			for _, n := range podContainerNames(c.Name, string(c.UpgradeStrategy.UpgradeType)) {
				theirs, ok := other.containers[n]
				if !ok {
					continue
				}
				out = append(out, conflict{what: "container", name: n, other: other.name,
					err: field.Invalid(l.path.Index(i).Child("name"), c.Name, fmt.Sprintf(
						"pods selected by both this SidecarSet and SidecarSet %q would get two containers named %q (%s's sidecar %q)",
						other.name, n, other.name, theirs))})
			}
		}
	}
	for i, v := range ss.Spec.Volumes {
		n := pub.PodVolumeName(v.Name)
		theirs, ok := other.volumes[n]
		if !ok || apiequality.Semantic.DeepEqual(theirs.VolumeSource, v.VolumeSource) {
			continue
		}
		out = append(out, conflict{what: "volume", name: n, other: other.name,
			err: field.Invalid(spec.Child("volumes").Index(i), v.Name, fmt.Sprintf(
				"SidecarSet %q defines volume %q differently for pods both select; use the same definition or another name",
				other.name, n))})
	}
	for i, p := range ss.Spec.PatchPodMetadata {
		for _, k := range sets.List(sets.KeySet(p.Annotations)) {
			theirs, ok := other.annotations[k]
			overwrite := string(apps.SidecarSetOverwritePatchPolicy)
			if !ok || (string(p.PatchPolicy) != overwrite && theirs != overwrite) {
				continue
			}
			out = append(out, conflict{what: "annotation", name: k, other: other.name,
				err: field.Invalid(spec.Child("patchPodMetadata").Index(i).Child("annotations").Key(k), p.Annotations[k], fmt.Sprintf(
					"SidecarSet %q also patches annotation %q into pods both select, and one of the two overwrites it",
					other.name, k))})
		}
	}
	return out
}

// newConflicts drops the conflicts old already had, so an update that does not
// add a clash is not blocked by one that got in earlier (two racing creates).
func newConflicts(now, before []conflict) field.ErrorList {
	had := sets.New[string]()
	for _, c := range before {
		had.Insert(c.key())
	}
	var errs field.ErrorList
	for _, c := range now {
		if !had.Has(c.key()) {
			errs = append(errs, c.err)
		}
	}
	return errs
}
