package validation

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// reservedProbeNames are the pod conditions OpenKruise refuses as a probe's name: a
// probe is reported under its name (in the NodePodProbe's status and the pod's
// probe results), which must not read as a condition kube or Kruise owns.
var reservedProbeNames = sets.New(
	string(corev1.PodScheduled), string(corev1.PodInitialized), string(corev1.PodReady),
	string(corev1.ContainersReady), pub.KruisePodReadyConditionType, pub.InPlaceUpdateReady,
)

// validateProbeNamesReserved refuses probes named after those conditions. On update
// (old non-nil) a probe of a name the old object already had passes, so markers stored
// before this rule stay updatable.
func validateProbeNamesReserved(spec, old *apps.PodProbeMarkerSpec, fldPath *field.Path) field.ErrorList {
	had := sets.New[string]()
	if old != nil {
		for _, p := range old.Probes {
			had.Insert(p.Name)
		}
	}
	var allErrs field.ErrorList
	for i, p := range spec.Probes {
		if reservedProbeNames.Has(p.Name) && !had.Has(p.Name) {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("probes").Index(i).Child("name"),
				"may not be the name of a pod condition kube or Kruise writes"))
		}
	}
	return allErrs
}
