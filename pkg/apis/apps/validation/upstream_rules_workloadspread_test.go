package validation

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// OpenKruise's pkg/webhook/workloadspread/validating, rule by rule. The rule that
// refuses a second WorkloadSpread of the same workload is in
// pkg/admission/targetconflict; README "Other kinds" says which rules we do not match.
func TestUpstreamRulesWorkloadSpread(t *testing.T) {
	const f = "workloadspread/validating/workloadspread_validation.go:"
	target := func(apiVersion, kind string) func(*apps.WorkloadSpread) {
		return func(w *apps.WorkloadSpread) {
			w.Spec.TargetReference = &apps.TargetReference{APIVersion: apiVersion, Kind: kind, Name: "web"}
		}
	}
	maxReplicas := func(a, b *intstr.IntOrString) func(*apps.WorkloadSpread) {
		return func(w *apps.WorkloadSpread) { w.Spec.Subsets[0].MaxReplicas, w.Spec.Subsets[1].MaxReplicas = a, b }
	}
	adaptive := func(seconds *int32) func(*apps.WorkloadSpread) {
		return func(w *apps.WorkloadSpread) {
			w.Spec.ScheduleStrategy = apps.WorkloadSpreadScheduleStrategy{Type: apps.AdaptiveWorkloadSpreadScheduleStrategyType,
				Adaptive: &apps.AdaptiveWorkloadSpreadStrategy{RescheduleCriticalSeconds: seconds}}
		}
	}
	runUpstreamRules(t, upstreamKind[*apps.WorkloadSpread]{
		kind: "WorkloadSpread", valid: validWorkloadSpread,
		validate: ValidateWorkloadSpread, validateUpdate: ValidateWorkloadSpreadUpdate,
	}, []upstreamRule[*apps.WorkloadSpread]{
		{rule: f + "validateWorkloadSpreadSpec: targetRef required",
			mut: func(w *apps.WorkloadSpread) { w.Spec.TargetReference = nil }, want: []wantErr{required("spec.targetRef")}},
		{rule: f + "validateWorkloadSpreadSpec: targetRef apiVersion, kind and name required",
			mut:  func(w *apps.WorkloadSpread) { w.Spec.TargetReference = &apps.TargetReference{} },
			want: []wantErr{required("spec.targetRef.apiVersion"), required("spec.targetRef.kind"), required("spec.targetRef.name")}},
		{rule: f + "validateWorkloadSpreadSpec: a CloneSet of group apps.kruise.io",
			mut: target("apps/v1", "CloneSet"), want: []wantErr{notSupported("spec.targetRef.kind")}},
		{rule: f + "validateWorkloadSpreadSpec: a Deployment of group apps",
			mut: target("apps.kruise.io/v1alpha1", "Deployment"), want: []wantErr{notSupported("spec.targetRef.kind")}},
		{rule: f + "validateWorkloadSpreadSpec: a ReplicaSet of group apps",
			mut: target("extensions/v1beta1", "ReplicaSet"), want: []wantErr{notSupported("spec.targetRef.kind")}},
		{rule: f + "validateWorkloadSpreadSpec: a Job of group batch",
			mut: target("apps/v1", "Job"), want: []wantErr{notSupported("spec.targetRef.kind")}},
		{rule: f + "validateWorkloadSpreadSpec: a StatefulSet of group apps or apps.kruise.io",
			mut: target("batch/v1", "StatefulSet"), want: []wantErr{notSupported("spec.targetRef.kind")}},
		{rule: f + "validateWorkloadSpreadSpec: any other kind only if whitelisted (none is here)",
			mut: target("apps/v1", "DaemonSet"), want: []wantErr{notSupported("spec.targetRef.kind")}},
		{rule: f + "validateWorkloadSpreadSubsets: at least one subset",
			mut: func(w *apps.WorkloadSpread) { w.Spec.Subsets = nil }, want: []wantErr{required("spec.subsets")}},
		{rule: f + "validateWorkloadSpreadSubsets: subset name required",
			mut: func(w *apps.WorkloadSpread) { w.Spec.Subsets[1].Name = "" }, want: []wantErr{required("spec.subsets[1].name")}},
		{rule: f + "validateWorkloadSpreadSubsets: subset names unique",
			mut: func(w *apps.WorkloadSpread) { w.Spec.Subsets[1].Name = "subset-a" }, want: []wantErr{duplicate("spec.subsets[1].name")}},
		{rule: f + "validateWorkloadSpreadSubsets: requiredNodeSelectorTerm by kube's rules",
			mut: func(w *apps.WorkloadSpread) {
				w.Spec.Subsets[0].RequiredNodeSelectorTerm.MatchExpressions[0].Operator = "Near"
			},
			want: []wantErr{invalid("spec.subsets[0].requiredNodeSelectorTerm.matchExpressions[0].operator")}},
		{rule: f + "validateWorkloadSpreadSubsets: preferredNodeSelectorTerms by kube's rules",
			mut: func(w *apps.WorkloadSpread) {
				w.Spec.Subsets[0].PreferredNodeSelectorTerms = []corev1.PreferredSchedulingTerm{{Weight: 0,
					Preference: *w.Spec.Subsets[0].RequiredNodeSelectorTerm}}
			}, want: []wantErr{invalid("spec.subsets[0].preferredNodeSelectorTerms[0].weight")}},
		{rule: f + "validateWorkloadSpreadSubsets: tolerations by kube's rules",
			mut: func(w *apps.WorkloadSpread) {
				w.Spec.Subsets[0].Tolerations = []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists, Value: "v"}}
			}, want: []wantErr{invalid("spec.subsets[0].tolerations[0].operator")}},
		{rule: f + "validateWorkloadSpreadSubsets: maxReplicas of one type in all subsets",
			mut: maxReplicas(intOrStr(3), strOrStr("50%")), want: []wantErr{invalid("spec.subsets[1].maxReplicas", "one type")}},
		{rule: f + "validateWorkloadSpreadSubsets: maxReplicas a number for a StatefulSet",
			mut: func(w *apps.WorkloadSpread) {
				target("apps/v1", "StatefulSet")(w)
				w.Spec.Subsets[0].MaxReplicas = strOrStr("100%")
			}, want: []wantErr{invalid("spec.subsets[0].maxReplicas", "StatefulSet")}},
		{rule: f + "validateWorkloadSpreadSubsets: maxReplicas not negative",
			mut: maxReplicas(intOrStr(-1), nil), want: []wantErr{invalid("spec.subsets[0].maxReplicas")}},
		{rule: f + "validateWorkloadSpreadSubsets: maxReplicas a number or a percent",
			mut: maxReplicas(strOrStr("lots"), nil), want: []wantErr{invalid("spec.subsets[0].maxReplicas")}},
		{rule: f + "validateWorkloadSpreadSubsets: percents add up to at most 100%",
			mut: maxReplicas(strOrStr("60%"), strOrStr("50%")), want: []wantErr{invalid("spec.subsets", "more than 100%")}},
		{rule: f + "validateWorkloadSpreadSubsets: percents add up to 100% unless the last subset is unset",
			mut: maxReplicas(strOrStr("30%"), strOrStr("30%")), want: []wantErr{invalid("spec.subsets", "add up to 100%")}},
		{rule: f + "validateWorkloadSpreadSpec: scheduleStrategy type Fixed or Adaptive",
			mut:  func(w *apps.WorkloadSpread) { w.Spec.ScheduleStrategy.Type = "Random" },
			want: []wantErr{notSupported("spec.scheduleStrategy.type")}},
		{rule: f + "validateWorkloadSpreadSpec: adaptive only with type Adaptive",
			mut: func(w *apps.WorkloadSpread) {
				w.Spec.ScheduleStrategy.Adaptive = &apps.AdaptiveWorkloadSpreadStrategy{}
			}, want: []wantErr{forbidden("spec.scheduleStrategy.adaptive")}},
		{rule: f + "validateWorkloadSpreadSpec: adaptive leaves the last subset's maxReplicas unset",
			mut: func(w *apps.WorkloadSpread) {
				adaptive(nil)(w)
				w.Spec.Subsets[1].MaxReplicas = intOrStr(2)
			}, want: []wantErr{invalid("spec.subsets[1].maxReplicas", "Adaptive")}},
		{rule: f + "validateWorkloadSpreadSpec: rescheduleCriticalSeconds not negative",
			mut: adaptive(int32p(-1)), want: []wantErr{invalid("spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds")}},
		{rule: f + "validateWorkloadSpreadSpec: rescheduleCriticalSeconds at most 295 s over the subsets but one",
			mut: adaptive(int32p(296)), want: []wantErr{invalid("spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds", "at most 295")}},
		{rule: f + "validateWorkloadSpreadTargetRefUpdate: the target's name is immutable", update: true,
			mut: func(w *apps.WorkloadSpread) { w.Spec.TargetReference.Name = "other" }, want: []wantErr{invalid("spec.targetRef", "immutable")}},
		{rule: f + "validateWorkloadSpreadTargetRefUpdate: the target's group and kind are immutable", update: true,
			mut: target("apps/v1", "Deployment"), want: []wantErr{invalid("spec.targetRef", "immutable")}},
	})
}

// A spread stored before the maxReplicas rules, and breaking one, stays updatable while
// its subsets, strategy and target stay as they are; changing them brings the rule in.
func TestWorkloadSpreadSharesRatchet(t *testing.T) {
	old := validWorkloadSpread()
	old.ResourceVersion = "1"
	old.Spec.Subsets[1].MaxReplicas = strOrStr("50%") // mixed with subset-a's 3
	ws := old.DeepCopy()
	ws.Labels = map[string]string{"team": "a"}
	expectErrors(t, ValidateWorkloadSpreadUpdate(ws, old))
	ws.Spec.Subsets[0].MaxReplicas = intOrStr(4)
	expectErrors(t, ValidateWorkloadSpreadUpdate(ws, old), invalid("spec.subsets[1].maxReplicas", "one type"))
	// A version change of the same workload is no change of target.
	ws = old.DeepCopy()
	ws.Spec.TargetReference.APIVersion = "apps.kruise.io/v1beta1"
	expectErrors(t, ValidateWorkloadSpreadUpdate(ws, old))
}
