// Package claimtemplate records on a workload's ControllerRevisions which
// volumeClaimTemplates they were made with, so that an update can tell whether the
// pods it moves would need other claims than they have. CloneSet's feature gate
// RecreatePodWhenChangeVCTInCloneSetGate acts on it: a pod whose revision was made with
// other claim templates than the update revision is recreated (with new claims), never
// updated in place.
//
// A revision's pod template is its identity; the claim templates are not part of it
// (as in OpenKruise): a change of volumeClaimTemplates alone makes no new revision and
// so moves no pod, and the hash is read from the revision's annotation, written when
// the revision is created.
package claimtemplate

import (
	"encoding/json"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// HashAnnotation is OpenKruise's annotation on a CloneSet's ControllerRevisions: the
// hash of the volumeClaimTemplates the revision was made with ("" for none).
const HashAnnotation = "kruise.io/cloneset-volumeclaimtemplate-hash"

// claim is what of a template the hash covers: its name and spec (labels and
// annotations of a claim do not change what the pod gets).
type claim struct {
	Name string                           `json:"name"`
	Spec corev1.PersistentVolumeClaimSpec `json:"spec"`
}

// Hash is the hash of templates, independent of their order; "" when there are none.
func Hash(templates []corev1.PersistentVolumeClaim) string {
	if len(templates) == 0 {
		return ""
	}
	claims := make([]claim, 0, len(templates))
	for _, t := range templates {
		claims = append(claims, claim{Name: t.Name, Spec: t.Spec})
	}
	slices.SortStableFunc(claims, func(a, b claim) int { return strings.Compare(a.Name, b.Name) })
	data, err := json.Marshal(claims)
	if err != nil {
		// A PersistentVolumeClaimSpec always marshals; an empty hash would only
		// make every revision look alike (in place, as before the gate).
		return ""
	}
	h := fnv.New32a()
	_, _ = h.Write(data)
	return strconv.FormatUint(uint64(h.Sum32()), 10)
}

// Annotations are the annotations a new revision made with templates carries.
func Annotations(templates []corev1.PersistentVolumeClaim) map[string]string {
	return map[string]string{HashAnnotation: Hash(templates)}
}

// InPlaceAllowed reports whether a pod of revision from may be updated in place to
// revision to as far as claims go: both were made with the same claim templates. A
// revision without the annotation (made before it was written) allows it, so that
// turning the gate on does not recreate every pod of a rollout already under way.
func InPlaceAllowed(from, to *appsv1.ControllerRevision) bool {
	fromHash, ok := from.Annotations[HashAnnotation]
	if !ok {
		return true
	}
	toHash, ok := to.Annotations[HashAnnotation]
	if !ok {
		return true
	}
	return fromHash == toHash
}
