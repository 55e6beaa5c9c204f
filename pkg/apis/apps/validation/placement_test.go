package validation

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The shared placement validators report kube's pod errors at the caller's path.
func TestPlacementValidators(t *testing.T) {
	fld := field.NewPath("spec", "subsets").Index(0)
	badTerm := corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: "Near"}}}
	goodTerm := corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}}}}
	for _, tc := range []struct {
		name string
		errs field.ErrorList
		want []wantErr
	}{
		{name: "good term", errs: validateNodeSelectorTerm(&goodTerm, fld.Child("nodeSelectorTerm"))},
		{name: "unknown operator", errs: validateNodeSelectorTerm(&badTerm, fld.Child("nodeSelectorTerm")),
			want: []wantErr{invalid("spec.subsets[0].nodeSelectorTerm.matchExpressions[0].operator")}},
		{name: "no preferred terms", errs: validatePreferredSchedulingTerms(nil, fld.Child("preferredNodeSelectorTerms"))},
		{name: "weight 0", errs: validatePreferredSchedulingTerms([]corev1.PreferredSchedulingTerm{{Weight: 0, Preference: goodTerm}}, fld.Child("preferredNodeSelectorTerms")),
			want: []wantErr{invalid("spec.subsets[0].preferredNodeSelectorTerms[0].weight")}},
		{name: "bad preference", errs: validatePreferredSchedulingTerms([]corev1.PreferredSchedulingTerm{{Weight: 1, Preference: badTerm}}, fld.Child("preferredNodeSelectorTerms")),
			want: []wantErr{invalid("spec.subsets[0].preferredNodeSelectorTerms[0].preference.matchExpressions[0].operator")}},
		{name: "good tolerations", errs: validateTolerations([]corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}}, fld.Child("tolerations"))},
		{name: "unknown effect", errs: validateTolerations([]corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists}, {Key: "k", Operator: corev1.TolerationOpExists, Effect: "Sometimes"}}, fld.Child("tolerations")),
			want: []wantErr{notSupported("spec.subsets[0].tolerations[1].effect")}},
	} {
		t.Run(tc.name, func(t *testing.T) { expectErrors(t, tc.errs, tc.want...) })
	}
}

func TestValidateTargetReference(t *testing.T) {
	targets := []schema.GroupKind{{Group: "apps.kruise.io", Kind: "CloneSet"}, {Group: "apps", Kind: "Deployment"}}
	fld := field.NewPath("spec", "targetRef")
	for _, tc := range []struct {
		name                    string
		apiVersion, kind, refTo string
		want                    []wantErr
	}{
		{name: "kruise kind", apiVersion: "apps.kruise.io/v1beta1", kind: "CloneSet", refTo: "web"},
		{name: "kube kind", apiVersion: "apps/v1", kind: "Deployment", refTo: "web"},
		{name: "empty", want: []wantErr{required("spec.targetRef.apiVersion"), required("spec.targetRef.kind"), required("spec.targetRef.name")}},
		{name: "unparsable apiVersion", apiVersion: "a/b/c", kind: "CloneSet", refTo: "web",
			want: []wantErr{invalid("spec.targetRef.apiVersion", "must be <group>/<version> or v1")}},
		{name: "unsupported kind", apiVersion: "batch/v1", kind: "Job", refTo: "web", want: []wantErr{notSupported("spec.targetRef.kind")}},
		{name: "bad name", apiVersion: "apps/v1", kind: "Deployment", refTo: "Web_1", want: []wantErr{invalid("spec.targetRef.name")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectErrors(t, ValidateTargetReference(tc.apiVersion, tc.kind, tc.refTo, targets, fld), tc.want...)
		})
	}
}
