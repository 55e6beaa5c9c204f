package validation

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// Subset workload templates for the UnitedDeployment tables, from the base object's
// CloneSet template (same workload labels and pod template).
func udStatefulSet(ud *apps.UnitedDeployment) {
	c := ud.Spec.Template.CloneSetTemplate
	ud.Spec.Template = apps.SubsetTemplate{StatefulSetTemplate: &apps.StatefulSetTemplateSpec{
		ObjectMeta: c.ObjectMeta, Spec: appsv1.StatefulSetSpec{ServiceName: "web", Template: c.Spec.Template}}}
}

func udAdvancedStatefulSet(ud *apps.UnitedDeployment) {
	c := ud.Spec.Template.CloneSetTemplate
	ud.Spec.Template = apps.SubsetTemplate{AdvancedStatefulSetTemplate: &apps.AdvancedStatefulSetTemplateSpec{
		ObjectMeta: c.ObjectMeta, Spec: apps.StatefulSetSpec{ServiceName: "web", Template: c.Spec.Template}}}
}

func udDeployment(ud *apps.UnitedDeployment) {
	c := ud.Spec.Template.CloneSetTemplate
	ud.Spec.Template = apps.SubsetTemplate{DeploymentTemplate: &apps.DeploymentTemplateSpec{
		ObjectMeta: c.ObjectMeta, Spec: appsv1.DeploymentSpec{Template: c.Spec.Template}}}
}

// udExpressionSelector selects app=sample-ud by an expression, which the controller
// cannot add to the workloads' labels as it adds matchLabels.
func udExpressionSelector(ud *apps.UnitedDeployment) {
	ud.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
		{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{"sample-ud"}}}}
}

// udElastic drops the fixed shares, for the elastic (min/max) and Adaptive cases.
func udElastic(ud *apps.UnitedDeployment) {
	for i := range ud.Spec.Topology.Subsets {
		ud.Spec.Topology.Subsets[i].Replicas = nil
	}
}

// TestUpstreamRulesUnitedDeployment: pkg/webhook/uniteddeployment/validating/
// uniteddeployment_validation.go and uniteddeployment_create_update_handler.go (which
// runs the create rules on update too). Both served versions share these paths.
func TestUpstreamRulesUnitedDeployment(t *testing.T) {
	const (
		v       = "uniteddeployment/validating/uniteddeployment_validation.go:"
		tp      = "spec.template"
		subsets = "spec.topology.subsets"
	)
	type ud = *apps.UnitedDeployment
	otherLabels := func(set func(ud) *metav1.ObjectMeta) func(ud) {
		return func(u ud) { udExpressionSelector(u); set(u).Labels = map[string]string{"app": "other"} }
	}
	adaptive := func(u ud) {
		u.Spec.Topology.ScheduleStrategy = apps.UnitedDeploymentScheduleStrategy{Type: apps.AdaptiveUnitedDeploymentScheduleStrategyType,
			Adaptive: &apps.AdaptiveUnitedDeploymentStrategy{}}
	}
	rollingPartition := func(p int32) appsv1.StatefulSetUpdateStrategy {
		return appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType,
			RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: int32p(p)}}
	}
	cases := []upstreamWorkloadRule[ud]{
		{upstream: v + "validateUnitedDeployment: metadata (name a DNS subdomain)",
			mutate: func(u ud) { u.Name = "Bad_Name" }, want: []wantErr{invalid("metadata.name")}},
		{upstream: v + "validateUnitedDeploymentSpec: replicas >= 0",
			mutate: func(u ud) { u.Spec.Replicas = int32p(-1) }, want: []wantErr{invalid("spec.replicas")}},
		{upstream: v + "validateUnitedDeploymentSpec: selector required",
			mutate: func(u ud) { u.Spec.Selector = nil }, want: []wantErr{required("spec.selector")}},
		{upstream: v + "validateUnitedDeploymentSpec: selector valid",
			mutate: func(u ud) {
				u.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "tier", Operator: "Near"}}
			}, want: []wantErr{invalid("spec.selector.matchExpressions[0].operator")}},
		{upstream: v + "validateUnitedDeploymentSpec: selector not empty",
			mutate: func(u ud) { u.Spec.Selector = &metav1.LabelSelector{} }, want: []wantErr{invalid("spec.selector", "empty selector")}},
		{upstream: v + "validateUnitedDeploymentSpec: reserving unschedulable pods only for stateless workloads",
			mutate: func(u ud) {
				udAdvancedStatefulSet(u)
				udElastic(u)
				adaptive(u)
				u.Spec.Topology.ScheduleStrategy.Adaptive.ReserveUnschedulablePods = true
			}, want: []wantErr{invalid("spec.topology.scheduleStrategy.adaptive.reserveUnschedulablePods")}},
		{upstream: v + "validateUnitedDeploymentSpec: no fixed subset replicas with the Adaptive strategy",
			mutate: adaptive, want: []wantErr{forbidden(subsets + "[0].replicas"), forbidden(subsets + "[1].replicas")}},
		{upstream: v + "validateUnitedDeploymentSpec: manualUpdate partitions name existing subsets",
			mutate: func(u ud) { u.Spec.UpdateStrategy.ManualUpdate.Partitions["subset-z"] = 1 },
			want:   []wantErr{notFound("spec.updateStrategy.manualUpdate.partitions[subset-z]")}},
		{upstream: v + "validateUnitedDeploymentSpec: subset name required",
			mutate: func(u ud) {
				u.Spec.Topology.Subsets[2].Name = ""
				delete(u.Spec.UpdateStrategy.ManualUpdate.Partitions, "subset-c")
			}, want: []wantErr{required(subsets + "[2].name")}},
		{upstream: v + "validateUnitedDeploymentSpec: subset names unique",
			mutate: func(u ud) {
				u.Spec.Topology.Subsets[2].Name = "subset-a"
				delete(u.Spec.UpdateStrategy.ManualUpdate.Partitions, "subset-c")
			}, want: []wantErr{duplicate(subsets + "[2].name")}},
		{upstream: v + "validateUnitedDeploymentSpec: subset name a DNS label",
			mutate: func(u ud) {
				u.Spec.Topology.Subsets[2].Name = "Subset_C"
				delete(u.Spec.UpdateStrategy.ManualUpdate.Partitions, "subset-c")
			}, want: []wantErr{invalid(subsets + "[2].name")}},
		{upstream: v + "validateUnitedDeploymentSpec: nodeSelectorTerm valid (ValidateNodeSelectorTerm)",
			mutate: func(u ud) { u.Spec.Topology.Subsets[0].NodeSelectorTerm.MatchExpressions[0].Operator = "Near" },
			want:   []wantErr{invalid(subsets + "[0].nodeSelectorTerm.matchExpressions[0].operator")}},
		{upstream: v + "validateUnitedDeploymentSpec: tolerations valid (ValidateTolerations)",
			mutate: func(u ud) {
				u.Spec.Topology.Subsets[0].Tolerations = []corev1.Toleration{{Key: "spot", Operator: "Maybe"}}
			}, want: []wantErr{notSupported(subsets + "[0].tolerations[0].operator")}},

		// validateSubsetReplicas
		{upstream: v + "validateSubsetReplicas: replicas an integer or percent (ParseSubsetReplicas)",
			mutate: func(u ud) { u.Spec.Topology.Subsets[0].Replicas = strOrStr("two") }, want: []wantErr{invalid(subsets + "[0].replicas")}},
		{upstream: v + "validateSubsetReplicas: minReplicas an integer or percent (ParseSubsetReplicas)",
			mutate: func(u ud) { udElastic(u); u.Spec.Topology.Subsets[0].MinReplicas = strOrStr("two") },
			want:   []wantErr{invalid(subsets + "[0].minReplicas")}},
		{upstream: v + "validateSubsetReplicas: maxReplicas an integer or percent (ParseSubsetReplicas)",
			mutate: func(u ud) { udElastic(u); u.Spec.Topology.Subsets[0].MaxReplicas = strOrStr("two") },
			want:   []wantErr{invalid(subsets + "[0].maxReplicas")}},
		{upstream: v + "validateSubsetReplicas: minReplicas <= maxReplicas",
			mutate: func(u ud) {
				udElastic(u)
				u.Spec.Topology.Subsets[0].MinReplicas, u.Spec.Topology.Subsets[0].MaxReplicas = intOrStr(3), intOrStr(2)
			}, want: []wantErr{invalid(subsets + "[0].minReplicas")}},
		{upstream: v + "validateSubsetReplicas: replicas and minReplicas/maxReplicas exclusive",
			mutate: func(u ud) { u.Spec.Topology.Subsets[2].MinReplicas = intOrStr(1) },
			want:   []wantErr{forbidden(subsets + "[0].replicas"), forbidden(subsets + "[1].replicas")}},
		{upstream: v + "validateSubsetReplicas: at least one subset without maxReplicas",
			mutate: func(u ud) {
				udElastic(u)
				for i := range u.Spec.Topology.Subsets {
					u.Spec.Topology.Subsets[i].MaxReplicas = intOrStr(4)
				}
			}, want: []wantErr{invalid(subsets, "at least one subset must have no maxReplicas")}},
		{upstream: v + "validateSubsetReplicas: minReplicas add up to no more than maxReplicas (only through a subset's min > max)",
			mutate: func(u ud) {
				udElastic(u)
				u.Spec.Topology.Subsets[0].MinReplicas, u.Spec.Topology.Subsets[0].MaxReplicas = intOrStr(5), intOrStr(1)
			}, want: []wantErr{invalid(subsets + "[0].minReplicas")}},
		{upstream: v + "validateSubsetReplicas: subsets' replicas add up to no more than spec.replicas",
			mutate: func(u ud) { u.Spec.Topology.Subsets[0].Replicas = intOrStr(6) },
			want:   []wantErr{invalid(subsets+"[1].replicas", "more than spec.replicas")}},
		{upstream: v + "validateSubsetReplicas: replicas of every subset add up to spec.replicas",
			mutate: func(u ud) { u.Spec.Topology.Subsets[2].Replicas = intOrStr(1) },
			want:   []wantErr{invalid(subsets, "must add up to spec.replicas (10)")}},

		// validateSubsetTemplate
		{upstream: v + "validateSubsetTemplate: one template",
			mutate: func(u ud) { u.Spec.Template.CloneSetTemplate = nil }, want: []wantErr{required(tp)}},
		{upstream: v + "validateSubsetTemplate: only one template",
			mutate: func(u ud) {
				u.Spec.Template.DeploymentTemplate = &apps.DeploymentTemplateSpec{Spec: appsv1.DeploymentSpec{
					Template: u.Spec.Template.CloneSetTemplate.Spec.Template}}
			}, want: []wantErr{invalid(tp, "exactly one")}},
		{upstream: v + "validateSubsetTemplate: statefulSetTemplate labels match the selector",
			mutate: func(u ud) {
				udStatefulSet(u)
				otherLabels(func(u ud) *metav1.ObjectMeta { return &u.Spec.Template.StatefulSetTemplate.ObjectMeta })(u)
			}, want: []wantErr{invalid(tp + ".statefulSetTemplate.metadata.labels")}},
		{upstream: v + "validateSubsetTemplate: advancedStatefulSetTemplate labels match the selector",
			mutate: func(u ud) {
				udAdvancedStatefulSet(u)
				otherLabels(func(u ud) *metav1.ObjectMeta { return &u.Spec.Template.AdvancedStatefulSetTemplate.ObjectMeta })(u)
			}, want: []wantErr{invalid(tp + ".advancedStatefulSetTemplate.metadata.labels")}},
		{upstream: v + "validateSubsetTemplate: deploymentTemplate labels match the selector",
			mutate: func(u ud) {
				udDeployment(u)
				otherLabels(func(u ud) *metav1.ObjectMeta { return &u.Spec.Template.DeploymentTemplate.ObjectMeta })(u)
			}, want: []wantErr{invalid(tp + ".deploymentTemplate.metadata.labels")}},
		{upstream: v + "validateSubsetTemplate: statefulSetTemplate pod template matches the selector (ValidatePodTemplateSpecForStatefulSet)",
			mutate: func(u ud) {
				udStatefulSet(u)
				u.Spec.Template.StatefulSetTemplate.Spec.Template.Labels = map[string]string{"app": "x"}
			},
			want: []wantErr{invalid(tp + ".statefulSetTemplate.spec.template.metadata.labels")}},
		{upstream: v + "validateSubsetTemplate: statefulSetTemplate pod template valid (ValidatePodTemplateSpecForStatefulSet)",
			mutate: func(u ud) {
				udStatefulSet(u)
				u.Spec.Template.StatefulSetTemplate.Spec.Template.Spec.Containers[0].Image = ""
			},
			want: []wantErr{required(tp + ".statefulSetTemplate.spec.template.spec.containers[0].image")}},
		{upstream: v + "validateSubsetTemplate: advancedStatefulSetTemplate pod template matches the selector (ValidatePodTemplateSpecForStatefulSet)",
			mutate: func(u ud) {
				udAdvancedStatefulSet(u)
				u.Spec.Template.AdvancedStatefulSetTemplate.Spec.Template.Labels = map[string]string{"app": "x"}
			}, want: []wantErr{invalid(tp + ".advancedStatefulSetTemplate.spec.template.metadata.labels")}},
		{upstream: v + "validateSubsetTemplate: advancedStatefulSetTemplate pod template valid (ValidatePodTemplateSpecForStatefulSet)",
			mutate: func(u ud) {
				udAdvancedStatefulSet(u)
				u.Spec.Template.AdvancedStatefulSetTemplate.Spec.Template.Spec.Containers[0].Image = ""
			}, want: []wantErr{required(tp + ".advancedStatefulSetTemplate.spec.template.spec.containers[0].image")}},
		{upstream: v + "validateSubsetTemplate: deploymentTemplate pod template matches the selector (ValidatePodTemplateSpecForReplicaSet)",
			mutate: func(u ud) {
				udDeployment(u)
				u.Spec.Template.DeploymentTemplate.Spec.Template.Labels = map[string]string{"app": "x"}
			},
			want: []wantErr{invalid(tp + ".deploymentTemplate.spec.template.metadata.labels")}},
		{upstream: v + "validateSubsetTemplate: deploymentTemplate pod template valid (ValidatePodTemplateSpecForReplicaSet)",
			mutate: func(u ud) {
				udDeployment(u)
				u.Spec.Template.DeploymentTemplate.Spec.Template.Spec.Containers[0].Image = ""
			},
			want: []wantErr{required(tp + ".deploymentTemplate.spec.template.spec.containers[0].image")}},
		{upstream: v + "validateStatefulSet: no replicas in statefulSetTemplate",
			mutate: func(u ud) { udStatefulSet(u); u.Spec.Template.StatefulSetTemplate.Spec.Replicas = int32p(3) },
			want:   []wantErr{forbidden(tp + ".statefulSetTemplate.spec.replicas")}},
		{upstream: v + "validateStatefulSet: no rollingUpdate partition in statefulSetTemplate",
			mutate: func(u ud) {
				udStatefulSet(u)
				u.Spec.Template.StatefulSetTemplate.Spec.UpdateStrategy = rollingPartition(1)
			},
			want: []wantErr{forbidden(tp + ".statefulSetTemplate.spec.updateStrategy.rollingUpdate.partition")}},
		{upstream: v + "validateAdvancedStatefulSet: no replicas in advancedStatefulSetTemplate",
			mutate: func(u ud) {
				udAdvancedStatefulSet(u)
				u.Spec.Template.AdvancedStatefulSetTemplate.Spec.Replicas = int32p(3)
			},
			want: []wantErr{forbidden(tp + ".advancedStatefulSetTemplate.spec.replicas")}},
		{upstream: v + "validateAdvancedStatefulSet: no rollingUpdate partition in advancedStatefulSetTemplate",
			mutate: func(u ud) {
				udAdvancedStatefulSet(u)
				u.Spec.Template.AdvancedStatefulSetTemplate.Spec.UpdateStrategy = apps.StatefulSetUpdateStrategy{
					Type: appsv1.RollingUpdateStatefulSetStrategyType, RollingUpdate: &apps.RollingUpdateStatefulSetStrategy{
						Partition: int32p(1), MaxUnavailable: intOrStr(1), PodUpdatePolicy: apps.RecreatePodUpdateStrategyType}}
			}, want: []wantErr{forbidden(tp + ".advancedStatefulSetTemplate.spec.updateStrategy.rollingUpdate.partition")}},
		{upstream: v + "validateDeployment: no replicas in deploymentTemplate",
			mutate: func(u ud) { udDeployment(u); u.Spec.Template.DeploymentTemplate.Spec.Replicas = int32p(3) },
			want:   []wantErr{forbidden(tp + ".deploymentTemplate.spec.replicas")}},

		// update
		{upstream: v + "ValidateUnitedDeploymentUpdate: metadata update (name immutable)", old: storedAsIs[ud],
			mutate: func(u ud) { u.Name = "other-ud" }, want: []wantErr{invalid("metadata.name", "immutable")}},
		{upstream: v + "ValidateUnitedDeploymentUpdate: replicas >= 0", old: storedAsIs[ud],
			mutate: func(u ud) { u.Spec.Replicas = int32p(-1) }, want: []wantErr{invalid("spec.replicas")}},
		{upstream: v + "validateStatefulSetUpdate: statefulSetTemplate changes only template and updateStrategy", old: udStatefulSet,
			mutate: func(u ud) { u.Spec.Template.StatefulSetTemplate.Spec.ServiceName = "web2" },
			want:   []wantErr{forbidden(tp + ".statefulSetTemplate.spec")}},
		{upstream: v + "validateAdvancedStatefulSetUpdate: advancedStatefulSetTemplate changes only template and updateStrategy", old: udAdvancedStatefulSet,
			mutate: func(u ud) { u.Spec.Template.AdvancedStatefulSetTemplate.Spec.ServiceName = "web2" },
			want:   []wantErr{forbidden(tp + ".advancedStatefulSetTemplate.spec")}},
		{upstream: v + "validateDeploymentUpdate: deploymentTemplate replicas (>= 0; here: not set)", old: udDeployment,
			mutate: func(u ud) { u.Spec.Template.DeploymentTemplate.Spec.Replicas = int32p(-1) },
			want:   []wantErr{forbidden(tp + ".deploymentTemplate.spec.replicas")}},
	}
	runUpstreamWorkloadRules(t, workloadRuleKind[ud]{
		fresh: newUnitedDeployment, deepCopy: func(u ud) ud { return u.DeepCopy() },
		create: ValidateUnitedDeployment, update: ValidateUnitedDeploymentUpdate,
	}, cases)
}

// TestUnitedDeploymentRulesRatchet: objects stored before a rule stay updatable when
// the update leaves what the rule checks as it was.
func TestUnitedDeploymentRulesRatchet(t *testing.T) {
	cases := []struct {
		name        string
		old, mutate func(*apps.UnitedDeployment)
		want        []wantErr
	}{
		{name: "partition of a removed subset, scaled",
			old:    func(u *apps.UnitedDeployment) { u.Spec.UpdateStrategy.ManualUpdate.Partitions["subset-z"] = 1 },
			mutate: func(u *apps.UnitedDeployment) { u.Spec.Replicas = int32p(20) }},
		{name: "partition of a removed subset, topology changed",
			old: func(u *apps.UnitedDeployment) { u.Spec.UpdateStrategy.ManualUpdate.Partitions["subset-z"] = 1 },
			mutate: func(u *apps.UnitedDeployment) {
				u.Spec.Topology.Subsets = append(u.Spec.Topology.Subsets, apps.Subset{Name: "subset-d"})
			}, want: []wantErr{notFound("spec.updateStrategy.manualUpdate.partitions[subset-z]")}},
		{name: "replicas in the StatefulSet template, new image",
			old: func(u *apps.UnitedDeployment) {
				udStatefulSet(u)
				u.Spec.Template.StatefulSetTemplate.Spec.Replicas = int32p(3)
			},
			mutate: func(u *apps.UnitedDeployment) {
				u.Spec.Template.StatefulSetTemplate.Spec.Template.Spec.Containers[0].Image = "nginx:1.27"
			}},
		{name: "fixed shares short of replicas, scaled",
			old:    func(u *apps.UnitedDeployment) { u.Spec.Topology.Subsets[2].Replicas = intOrStr(1) },
			mutate: func(u *apps.UnitedDeployment) { u.Spec.Replicas = int32p(9) }},
		{name: "workload labels not matching, image changed",
			old: func(u *apps.UnitedDeployment) {
				udDeployment(u)
				udExpressionSelector(u)
				u.Spec.Template.DeploymentTemplate.Labels = map[string]string{"app": "other"}
			},
			mutate: func(u *apps.UnitedDeployment) {
				u.Spec.Template.DeploymentTemplate.Spec.Template.Spec.Containers[0].Image = "nginx:1.27"
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := newUnitedDeployment(t)
			tc.old(old)
			u := old.DeepCopy()
			tc.mutate(u)
			expectErrors(t, ValidateUnitedDeploymentUpdate(u, old), tc.want...)
		})
	}
}
