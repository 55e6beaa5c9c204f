package validation

import (
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	appsvalidation "github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/apis/policy"
)

func budget(mut func(*policy.PodUnavailableBudget)) *policy.PodUnavailableBudget {
	one := intstr.FromInt32(1)
	p := &policy.PodUnavailableBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "pub", Namespace: "default"},
		Spec: policy.PodUnavailableBudgetSpec{
			TargetReference: &policy.TargetReference{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: "web"},
			MaxUnavailable:  &one,
		},
	}
	if mut != nil {
		mut(p)
	}
	return p
}

func ptr(v intstr.IntOrString) *intstr.IntOrString { return &v }

func TestValidatePodUnavailableBudget(t *testing.T) {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	for _, tc := range []struct {
		name string
		mut  func(*policy.PodUnavailableBudget)
		want []string // fields of the errors, in order; nil means valid
	}{
		{name: "targetRef and maxUnavailable"},
		{name: "selector and minAvailable percent", mut: func(p *policy.PodUnavailableBudget) {
			p.Spec.TargetReference, p.Spec.Selector = nil, sel
			p.Spec.MaxUnavailable, p.Spec.MinAvailable = nil, ptr(intstr.FromString("60%"))
		}},
		{name: "deployment target", mut: func(p *policy.PodUnavailableBudget) {
			p.Spec.TargetReference = &policy.TargetReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}
		}},
		{name: "both budgets", mut: func(p *policy.PodUnavailableBudget) { p.Spec.MinAvailable = ptr(intstr.FromInt32(2)) },
			want: []string{"spec.minAvailable"}},
		{name: "no budget", mut: func(p *policy.PodUnavailableBudget) { p.Spec.MaxUnavailable = nil },
			want: []string{"spec.maxUnavailable"}},
		{name: "selector and targetRef", mut: func(p *policy.PodUnavailableBudget) { p.Spec.Selector = sel },
			want: []string{"spec.targetRef"}},
		{name: "neither selector nor targetRef", mut: func(p *policy.PodUnavailableBudget) { p.Spec.TargetReference = nil },
			want: []string{"spec.selector"}},
		{name: "bad percent", mut: func(p *policy.PodUnavailableBudget) { p.Spec.MaxUnavailable = ptr(intstr.FromString("1x%")) },
			want: []string{"spec.maxUnavailable"}},
		{name: "percent over 100", mut: func(p *policy.PodUnavailableBudget) {
			p.Spec.MaxUnavailable, p.Spec.MinAvailable = nil, ptr(intstr.FromString("101%"))
		}, want: []string{"spec.minAvailable"}},
		{name: "negative number", mut: func(p *policy.PodUnavailableBudget) { p.Spec.MaxUnavailable = ptr(intstr.FromInt32(-1)) },
			want: []string{"spec.maxUnavailable"}},
		{name: "unsupported kind", mut: func(p *policy.PodUnavailableBudget) { p.Spec.TargetReference.Kind = "Job" },
			want: []string{"spec.targetRef.kind"}},
		{name: "target without name", mut: func(p *policy.PodUnavailableBudget) { p.Spec.TargetReference.Name = "" },
			want: []string{"spec.targetRef.name"}},
		{name: "bad selector", mut: func(p *policy.PodUnavailableBudget) {
			p.Spec.TargetReference = nil
			p.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"-": "x"}}
		}, want: []string{"spec.selector.matchLabels"}},
		{name: "v1beta1 fields", mut: func(p *policy.PodUnavailableBudget) {
			n := int32(3)
			p.Spec.ProtectOperations = []policy.PubOperation{policy.PubEvictOperation}
			p.Spec.ProtectTotalReplicas = &n
			p.Spec.IgnoredPodSelector = sel
		}},
		{name: "unguarded operation", mut: func(p *policy.PodUnavailableBudget) {
			p.Spec.ProtectOperations = []policy.PubOperation{"DELETE", "RESIZE"}
		}, want: []string{"spec.protectOperations[1]"}},
		{name: "unknown protected operation", mut: func(p *policy.PodUnavailableBudget) {
			p.Annotations = map[string]string{policy.PubProtectOperationAnnotation: "DELETE,RESTART"}
		}, want: []string{"metadata.annotations[kruise.io/pub-protect-operations]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := ValidatePodUnavailableBudget(budget(tc.mut))
			var got []string
			for _, e := range errs {
				got = append(got, e.Field)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("errors %v, want fields %v", errs, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("error %d at %s, want %s (%v)", i, got[i], tc.want[i], errs)
				}
			}
		})
	}
}

// A budget's targetRef is checked by the validator WorkloadSpread and PersistentPodState
// use: the same bad reference gets the same errors, messages included, in each kind.
func TestTargetRefErrorsAsWorkloadSpread(t *testing.T) {
	for _, ref := range []apps.TargetReference{
		{APIVersion: "a/b/c", Kind: "CloneSet", Name: "web"},
		{APIVersion: "", Kind: "", Name: ""},
		{APIVersion: "apps/v1", Kind: "Deployment", Name: "Web_1"},
	} {
		pubErrs := ValidatePodUnavailableBudget(budget(func(p *policy.PodUnavailableBudget) {
			p.Spec.TargetReference = &policy.TargetReference{APIVersion: ref.APIVersion, Kind: ref.Kind, Name: ref.Name}
		}))
		ws := &apps.WorkloadSpread{ObjectMeta: metav1.ObjectMeta{Name: "ws", Namespace: "default"},
			Spec: apps.WorkloadSpreadSpec{TargetReference: &ref}}
		var got, want []string
		for _, e := range pubErrs {
			got = append(got, e.Error())
		}
		for _, e := range appsvalidation.ValidateWorkloadSpread(ws) {
			if strings.HasPrefix(e.Field, "spec.targetRef") {
				want = append(want, e.Error())
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("targetRef %+v:\n budget:         %q\n workloadspread: %q", ref, got, want)
		}
	}
}
