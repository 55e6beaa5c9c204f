package validation

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/policy"
	"github.com/kruise-native/kruise-native/pkg/apis/policy/install"
)

var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	return s
}()

// OpenKruise's pkg/webhook/podunavailablebudget/validating, rule by rule, each case
// through every served version of policy.kruise.io. README "Other kinds" says which
// rules we do not match (the rules across budgets, and a changed selector or target).
func TestUpstreamRulesPodUnavailableBudget(t *testing.T) {
	const f = "podunavailablebudget/validating/pub_create_update_handler.go:"
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	bySelector := func(p *policy.PodUnavailableBudget) { p.Spec.TargetReference, p.Spec.Selector = nil, sel.DeepCopy() }
	annotate := func(k, v string) func(*policy.PodUnavailableBudget) {
		return func(p *policy.PodUnavailableBudget) { p.Annotations = map[string]string{k: v} }
	}
	type want struct {
		typ   field.ErrorType
		field string
	}
	cases := []struct {
		rule   string
		update bool
		mut    func(*policy.PodUnavailableBudget)
		want   []want
	}{
		{rule: f + "validatingPodUnavailableBudgetFn: protect-operation annotation of DELETE, UPDATE, EVICT",
			mut:  annotate(policy.PubProtectOperationAnnotation, "DELETE,PATCH"),
			want: []want{{field.ErrorTypeNotSupported, "metadata.annotations[" + policy.PubProtectOperationAnnotation + "]"}}},
		{rule: f + "validatingPodUnavailableBudgetFn: protect-total-replicas annotation an integer",
			mut:  annotate(policy.PubProtectTotalReplicasAnnotation, "five"),
			want: []want{{field.ErrorTypeInvalid, "metadata.annotations[" + policy.PubProtectTotalReplicasAnnotation + "]"}}},
		{rule: f + "validatePodUnavailableBudgetSpec: selector or targetRef",
			mut:  func(p *policy.PodUnavailableBudget) { p.Spec.TargetReference = nil },
			want: []want{{field.ErrorTypeRequired, "spec.selector"}}},
		{rule: f + "validatePodUnavailableBudgetSpec: selector and targetRef mutually exclusive",
			mut:  func(p *policy.PodUnavailableBudget) { p.Spec.Selector = sel.DeepCopy() },
			want: []want{{field.ErrorTypeForbidden, "spec.targetRef"}}},
		{rule: f + "validatePodUnavailableBudgetSpec: targetRef apiVersion, kind and name required",
			mut: func(p *policy.PodUnavailableBudget) { p.Spec.TargetReference = &policy.TargetReference{} },
			want: []want{{field.ErrorTypeRequired, "spec.targetRef.apiVersion"}, {field.ErrorTypeRequired, "spec.targetRef.kind"},
				{field.ErrorTypeRequired, "spec.targetRef.name"}}},
		{rule: f + "validatePodUnavailableBudgetSpec: targetRef apiVersion parses",
			mut:  func(p *policy.PodUnavailableBudget) { p.Spec.TargetReference.APIVersion = "apps/v1/x" },
			want: []want{{field.ErrorTypeInvalid, "spec.targetRef.apiVersion"}}},
		{rule: f + "validatePodUnavailableBudgetSpec: selector by kube's rules",
			mut: func(p *policy.PodUnavailableBudget) {
				bySelector(p)
				p.Spec.Selector.MatchLabels["app"] = "-web-"
			}, want: []want{{field.ErrorTypeInvalid, "spec.selector.matchLabels"}}},
		{rule: f + "validatePodUnavailableBudgetSpec: selector not empty",
			mut: func(p *policy.PodUnavailableBudget) {
				bySelector(p)
				p.Spec.Selector.MatchLabels = nil
			}, want: []want{{field.ErrorTypeInvalid, "spec.selector"}}},
		{rule: f + "validatePodUnavailableBudgetSpec: maxUnavailable or minAvailable",
			mut:  func(p *policy.PodUnavailableBudget) { p.Spec.MaxUnavailable = nil },
			want: []want{{field.ErrorTypeRequired, "spec.maxUnavailable"}}},
		{rule: f + "validatePodUnavailableBudgetSpec: maxUnavailable and minAvailable mutually exclusive",
			mut:  func(p *policy.PodUnavailableBudget) { p.Spec.MinAvailable = ptr(intstr.FromInt32(1)) },
			want: []want{{field.ErrorTypeForbidden, "spec.minAvailable"}}},
		{rule: f + "validatePodUnavailableBudgetSpec: maxUnavailable not negative",
			mut:  func(p *policy.PodUnavailableBudget) { p.Spec.MaxUnavailable = ptr(intstr.FromInt32(-1)) },
			want: []want{{field.ErrorTypeInvalid, "spec.maxUnavailable"}}},
		{rule: f + "validatePodUnavailableBudgetSpec: maxUnavailable at most 100%",
			mut:  func(p *policy.PodUnavailableBudget) { p.Spec.MaxUnavailable = ptr(intstr.FromString("101%")) },
			want: []want{{field.ErrorTypeInvalid, "spec.maxUnavailable"}}},
		{rule: f + "validatePodUnavailableBudgetSpec: minAvailable not negative",
			mut: func(p *policy.PodUnavailableBudget) {
				p.Spec.MaxUnavailable, p.Spec.MinAvailable = nil, ptr(intstr.FromString("-5%"))
			}, want: []want{{field.ErrorTypeInvalid, "spec.minAvailable"}}},
		{rule: f + "validatePodUnavailableBudgetSpec: minAvailable at most 100%",
			mut: func(p *policy.PodUnavailableBudget) {
				p.Spec.MaxUnavailable, p.Spec.MinAvailable = nil, ptr(intstr.FromString("150%"))
			}, want: []want{{field.ErrorTypeInvalid, "spec.minAvailable"}}},
	}
	versions := scheme.PrioritizedVersionsForGroup(policy.GroupName)
	if len(versions) == 0 {
		t.Fatal("no served version of policy.kruise.io")
	}
	for _, c := range cases {
		for _, gv := range versions {
			t.Run(gv.Version+"/"+c.rule, func(t *testing.T) {
				p := budget(nil)
				c.mut(p)
				var got []string
				for _, e := range ValidatePodUnavailableBudget(through(t, gv.WithKind("PodUnavailableBudget"), p)) {
					got = append(got, fmt.Sprintf("%s %s", e.Type, e.Field))
				}
				var wanted []string
				for _, w := range c.want {
					wanted = append(wanted, fmt.Sprintf("%s %s", w.typ, w.field))
				}
				sort.Strings(got)
				sort.Strings(wanted)
				if strings.Join(got, "\n") != strings.Join(wanted, "\n") {
					t.Errorf("want errors\n  %s\ngot\n  %s", strings.Join(wanted, "\n  "), strings.Join(got, "\n  "))
				}
			})
		}
	}
}

// A budget stored with an empty selector stays updatable while its selector stays.
func TestPodUnavailableBudgetEmptySelectorRatchet(t *testing.T) {
	old := budget(func(p *policy.PodUnavailableBudget) {
		p.ResourceVersion = "1"
		p.Spec.TargetReference, p.Spec.Selector = nil, &metav1.LabelSelector{}
	})
	p := old.DeepCopy()
	p.Spec.MaxUnavailable = ptr(intstr.FromInt32(2))
	if errs := ValidatePodUnavailableBudgetUpdate(p, old); len(errs) > 0 {
		t.Fatalf("unchanged empty selector refused: %v", errs)
	}
	p.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{}}
	p.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{}
	if errs := ValidatePodUnavailableBudgetUpdate(p, old); len(errs) != 0 {
		t.Fatalf("a selector that is still empty in another spelling refused: %v", errs)
	}
	p.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{}}
	old.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	if errs := ValidatePodUnavailableBudgetUpdate(p, old); len(errs) != 1 || errs[0].Field != "spec.selector" {
		t.Fatalf("a selector emptied by the update: want one error at spec.selector, got %v", errs)
	}
}

// through converts an internal budget to gvk's version and back (a copy: conversions
// may share memory with their input).
func through(t *testing.T, gvk schema.GroupVersionKind, p *policy.PodUnavailableBudget) *policy.PodUnavailableBudget {
	t.Helper()
	versioned, err := scheme.New(gvk)
	if err != nil {
		t.Fatal(err)
	}
	if err := scheme.Convert(p, versioned, nil); err != nil {
		t.Fatal(err)
	}
	out := &policy.PodUnavailableBudget{}
	if err := scheme.Convert(versioned, out, nil); err != nil {
		t.Fatal(err)
	}
	return out.DeepCopy()
}
