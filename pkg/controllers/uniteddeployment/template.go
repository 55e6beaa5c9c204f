package uniteddeployment

import (
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

const (
	// SubsetLabel names a subset on its workload, in the workload's selector and on its
	// pods (OpenKruise's apps.kruise.io/subset-name).
	SubsetLabel = "apps.kruise.io/subset-name"
	// RevisionLabel on a subset's workload names the UnitedDeployment revision its
	// template comes from (OpenKruise's apps.kruise.io/controller-revision-hash).
	RevisionLabel = "apps.kruise.io/controller-revision-hash"
	// specHashAnnotation holds a hash of what the controller last wrote to a workload,
	// so that a sync writes only when the desired workload changed (the stored object
	// carries the server's defaults and never equals the desired one field by field).
	specHashAnnotation = "apps.kruise.io/subset-spec-hash"
)

// subsetPodTemplate returns the pod template of a subset's workload: the
// UnitedDeployment's template with the subset's label, its nodeSelectorTerm added to
// the required node affinity (ANDed into every term the template already has), its
// tolerations appended, and then its patch applied as a strategic merge patch of the
// pod template, as OpenKruise applies it (the patch wins over everything before it).
func subsetPodTemplate(base *corev1.PodTemplateSpec, subset *v1beta1.Subset) (*corev1.PodTemplateSpec, error) {
	t := base.DeepCopy()
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	t.Labels[SubsetLabel] = subset.Name

	if term := subset.NodeSelectorTerm; len(term.MatchExpressions)+len(term.MatchFields) > 0 {
		if t.Spec.Affinity == nil {
			t.Spec.Affinity = &corev1.Affinity{}
		}
		if t.Spec.Affinity.NodeAffinity == nil {
			t.Spec.Affinity.NodeAffinity = &corev1.NodeAffinity{}
		}
		na := t.Spec.Affinity.NodeAffinity
		if na.RequiredDuringSchedulingIgnoredDuringExecution == nil {
			na.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{}
		}
		required := na.RequiredDuringSchedulingIgnoredDuringExecution
		if len(required.NodeSelectorTerms) == 0 {
			required.NodeSelectorTerms = []corev1.NodeSelectorTerm{*term.DeepCopy()}
		} else {
			// Terms are ORed, requirements within a term ANDed: the subset's
			// requirements join every term.
			for i := range required.NodeSelectorTerms {
				tt := &required.NodeSelectorTerms[i]
				tt.MatchExpressions = append(tt.MatchExpressions, term.DeepCopy().MatchExpressions...)
				tt.MatchFields = append(tt.MatchFields, term.DeepCopy().MatchFields...)
			}
		}
	}
	for _, tol := range subset.Tolerations {
		t.Spec.Tolerations = append(t.Spec.Tolerations, *tol.DeepCopy())
	}

	if raw := subset.Patch.Raw; len(raw) > 0 && string(raw) != "null" {
		cur, err := json.Marshal(t)
		if err != nil {
			return nil, fmt.Errorf("encoding the template of subset %s: %w", subset.Name, err)
		}
		patched, err := strategicpatch.StrategicMergePatch(cur, raw, &corev1.PodTemplateSpec{})
		if err != nil {
			return nil, fmt.Errorf("applying the patch of subset %s: %w", subset.Name, err)
		}
		out := &corev1.PodTemplateSpec{}
		if err := json.Unmarshal(patched, out); err != nil {
			return nil, fmt.Errorf("decoding the patched template of subset %s: %w", subset.Name, err)
		}
		t = out
		// The subset label ties pods to their workload's selector: a patch may not drop it.
		if t.Labels == nil {
			t.Labels = map[string]string{}
		}
		t.Labels[SubsetLabel] = subset.Name
	}
	return t, nil
}
