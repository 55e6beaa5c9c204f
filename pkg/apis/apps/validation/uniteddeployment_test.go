package validation

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// newUnitedDeployment returns the documented example, defaulted: 10 replicas over
// subsets of 2, 50% and the rest, one CloneSet per subset.
func newUnitedDeployment(t *testing.T) *apps.UnitedDeployment {
	t.Helper()
	labels := map[string]string{"app": "sample-ud"}
	zone := func(z string) corev1.NodeSelectorTerm {
		return corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{{
			Key: "topology.kubernetes.io/zone", Operator: corev1.NodeSelectorOpIn, Values: []string{z}}}}
	}
	v := &v1alpha1.UnitedDeployment{
		ObjectMeta: metav1.ObjectMeta{Name: "sample-ud", Namespace: "default", ResourceVersion: "1"},
		Spec: v1alpha1.UnitedDeploymentSpec{
			Replicas: int32p(10),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: v1alpha1.SubsetTemplate{CloneSetTemplate: &v1alpha1.CloneSetTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: v1alpha1.CloneSetSpec{
					Selector: &metav1.LabelSelector{MatchLabels: labels},
					Template: podTemplate(labels),
				},
			}},
			Topology: v1alpha1.Topology{Subsets: []v1alpha1.Subset{
				{Name: "subset-a", NodeSelectorTerm: zone("a"), Replicas: intOrStr(2)},
				{Name: "subset-b", NodeSelectorTerm: zone("b"), Replicas: strOrStr("50%")},
				{Name: "subset-c", NodeSelectorTerm: zone("c")},
			}},
			UpdateStrategy: v1alpha1.UnitedDeploymentUpdateStrategy{ManualUpdate: &v1alpha1.ManualUpdate{
				Partitions: map[string]int32{"subset-a": 0, "subset-b": 0, "subset-c": 0}}},
		},
	}
	v1alpha1.SetObjectDefaults_UnitedDeployment(v)
	out := &apps.UnitedDeployment{}
	toInternal(t, v, out)
	return out
}

func TestValidateUnitedDeployment(t *testing.T) {
	const subsets = "spec.topology.subsets"
	cases := []struct {
		name   string
		mutate func(ud *apps.UnitedDeployment)
		want   []wantErr
	}{
		{name: "the documented example", mutate: func(*apps.UnitedDeployment) {}},
		{name: "negative replicas", mutate: func(ud *apps.UnitedDeployment) { ud.Spec.Replicas = int32p(-1) },
			want: []wantErr{invalid("spec.replicas")}},

		// subsets
		{name: "duplicate subset names", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Topology.Subsets[2].Name = "subset-a"
			delete(ud.Spec.UpdateStrategy.ManualUpdate.Partitions, "subset-c")
		}, want: []wantErr{duplicate(subsets + "[2].name")}},
		{name: "subset name not a DNS label", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Topology.Subsets[2].Name = "Subset_C"
			delete(ud.Spec.UpdateStrategy.ManualUpdate.Partitions, "subset-c")
		}, want: []wantErr{invalid(subsets + "[2].name")}},
		{name: "no subset name", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Topology.Subsets[2].Name = ""
			delete(ud.Spec.UpdateStrategy.ManualUpdate.Partitions, "subset-c")
		},
			want: []wantErr{required(subsets + "[2].name")}},
		{name: "subset sum above replicas", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Topology.Subsets[2].Replicas = intOrStr(4)
		}, want: []wantErr{invalid(subsets+"[2].replicas", "more than spec.replicas (10): 6 and 50% of it")}},
		{name: "50% and 50% of an odd number (shares are checked before rounding)", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Replicas = int32p(5)
			ud.Spec.Topology.Subsets[0].Replicas = strOrStr("50%")
			ud.Spec.Topology.Subsets[1].Replicas = strOrStr("50%")
		}},
		{name: "a number and a percent above replicas", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Replicas = int32p(4)
			ud.Spec.Topology.Subsets[0].Replicas = intOrStr(3)
		}, want: []wantErr{invalid(subsets + "[1].replicas")}},
		{name: "a percent over 100%", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Topology.Subsets[1].Replicas = strOrStr("120%")
		}, want: []wantErr{invalid(subsets+"[1].replicas", "100%")}},
		{name: "percents adding up over 100%", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Topology.Subsets[0].Replicas = strOrStr("30%")
			ud.Spec.Topology.Subsets[2].Replicas = strOrStr("30%")
			ud.Spec.Replicas = int32p(100)
		}, want: []wantErr{invalid(subsets+"[2].replicas", "110%")}},
		{name: "replicas not a number or percent", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Topology.Subsets[1].Replicas = strOrStr("half")
		}, want: []wantErr{invalid(subsets + "[1].replicas")}},
		{name: "elastic subsets", mutate: func(ud *apps.UnitedDeployment) {
			for i := range ud.Spec.Topology.Subsets {
				ud.Spec.Topology.Subsets[i].Replicas = nil
			}
			ud.Spec.Topology.Subsets[0].MaxReplicas = intOrStr(3)
			ud.Spec.Topology.Subsets[1].MinReplicas = intOrStr(1)
			ud.Spec.Topology.Subsets[1].MaxReplicas = strOrStr("50%")
		}},
		{name: "replicas beside maxReplicas", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Topology.Subsets[2].MaxReplicas = intOrStr(3)
		}, want: []wantErr{forbidden(subsets + "[0].replicas"), forbidden(subsets + "[1].replicas")}},
		{name: "minReplicas above maxReplicas", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Topology.Subsets[0].Replicas, ud.Spec.Topology.Subsets[1].Replicas = nil, nil
			ud.Spec.Topology.Subsets[0].MinReplicas = intOrStr(4)
			ud.Spec.Topology.Subsets[0].MaxReplicas = intOrStr(3)
		}, want: []wantErr{invalid(subsets + "[0].minReplicas")}},
		{name: "bad node selector operator", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Topology.Subsets[0].NodeSelectorTerm.MatchExpressions[0].Operator = "Near"
		}, want: []wantErr{invalid(subsets + "[0].nodeSelectorTerm.matchExpressions[0].operator")}},
		{name: "bad toleration", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Topology.Subsets[0].Tolerations = []corev1.Toleration{{Key: "spot", Operator: corev1.TolerationOpExists, Value: "x"}}
		}, want: []wantErr{invalid(subsets + "[0].tolerations[0].operator")}},
		{name: "patch not an object", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Topology.Subsets[0].Patch = runtime.RawExtension{Raw: []byte(`[1]`)}
		}, want: []wantErr{invalid(subsets + "[0].patch")}},
		{name: "patch of labels", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Topology.Subsets[0].Patch = runtime.RawExtension{Raw: []byte(`{"metadata":{"labels":{"pool":"spot"}}}`)}
		}},
		{name: "unknown schedule strategy", mutate: func(ud *apps.UnitedDeployment) { ud.Spec.Topology.ScheduleStrategy.Type = "Random" },
			want: []wantErr{notSupported("spec.topology.scheduleStrategy.type")}},
		{name: "negative rescheduleCriticalSeconds", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Topology.ScheduleStrategy = apps.UnitedDeploymentScheduleStrategy{Type: apps.AdaptiveUnitedDeploymentScheduleStrategyType,
				Adaptive: &apps.AdaptiveUnitedDeploymentStrategy{RescheduleCriticalSeconds: int32p(-1)}}
			ud.Spec.Topology.Subsets[0].Replicas, ud.Spec.Topology.Subsets[1].Replicas = nil, nil
		}, want: []wantErr{invalid("spec.topology.scheduleStrategy.adaptive.rescheduleCriticalSeconds")}},

		// template
		{name: "two templates at once", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Template.DeploymentTemplate = &apps.DeploymentTemplateSpec{Spec: appsv1.DeploymentSpec{Template: podTemplate(map[string]string{"app": "sample-ud"})}}
		}, want: []wantErr{invalid("spec.template", "exactly one of")}},
		{name: "no template", mutate: func(ud *apps.UnitedDeployment) { ud.Spec.Template.CloneSetTemplate = nil },
			want: []wantErr{required("spec.template")}},
		{name: "selector not matching the template", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Template.CloneSetTemplate.Spec.Template.Labels = map[string]string{"app": "other"}
		}, want: []wantErr{invalid("spec.template.cloneSetTemplate.spec.template.metadata.labels", "selector does not match")}},
		{name: "the template's own selector is not the one used", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Template.CloneSetTemplate.Spec.Selector = nil
		}},
		{name: "no selector", mutate: func(ud *apps.UnitedDeployment) { ud.Spec.Selector = nil },
			want: []wantErr{required("spec.selector")}},
		{name: "deployment template not matching", mutate: func(ud *apps.UnitedDeployment) {
			tmpl := ud.Spec.Template.CloneSetTemplate.Spec.Template
			tmpl.Labels = map[string]string{"app": "x"}
			ud.Spec.Template.CloneSetTemplate = nil
			ud.Spec.Template.DeploymentTemplate = &apps.DeploymentTemplateSpec{Spec: appsv1.DeploymentSpec{Template: tmpl}}
		}, want: []wantErr{invalid("spec.template.deploymentTemplate.spec.template.metadata.labels")}},
		{name: "container without image in the template", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Template.CloneSetTemplate.Spec.Template.Spec.Containers[0].Image = ""
		}, want: []wantErr{required("spec.template.cloneSetTemplate.spec.template.spec.containers[0].image")}},

		// update strategy
		{name: "negative partition", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.UpdateStrategy.ManualUpdate.Partitions["subset-b"] = -1
		}, want: []wantErr{invalid("spec.updateStrategy.manualUpdate.partitions[subset-b]")}},
		{name: "unknown update strategy", mutate: func(ud *apps.UnitedDeployment) { ud.Spec.UpdateStrategy.Type = "Auto" },
			want: []wantErr{notSupported("spec.updateStrategy.type")}},

		// names: a subset's CloneSet is <name>-<subset>-<5 random characters>, at most 52
		// long; subsets of 8 characters leave 37 for the name.
		{name: "longest name for subsets of 8 characters", mutate: func(ud *apps.UnitedDeployment) { ud.Name = strings.Repeat("a", 37) }},
		{name: "name too long for a subset's CloneSet", mutate: func(ud *apps.UnitedDeployment) { ud.Name = strings.Repeat("a", 38) },
			want: []wantErr{invalid("metadata.name", "must be no more than 37 characters: the CloneSet of subset subset-a is named <name>-subset-a-<5 random characters>")}},
		{name: "the longest subset sets the limit", mutate: func(ud *apps.UnitedDeployment) {
			ud.Name = strings.Repeat("a", 37)
			ud.Spec.Topology.Subsets[2].Name = "subset-c-longer"
			ud.Spec.UpdateStrategy.ManualUpdate.Partitions = nil
		}, want: []wantErr{invalid("metadata.name", "must be no more than 30 characters: the CloneSet of subset subset-c-longer")}},
		{name: "the 60-character name of the issue", mutate: func(ud *apps.UnitedDeployment) { ud.Name = strings.Repeat("a", 60) },
			want: []wantErr{invalid("metadata.name", "must be no more than 37 characters")}},
		{name: "kube's StatefulSets: the same limit", mutate: func(ud *apps.UnitedDeployment) {
			ud.Name = strings.Repeat("a", 38)
			ud.Spec.Template = apps.SubsetTemplate{StatefulSetTemplate: &apps.StatefulSetTemplateSpec{
				ObjectMeta: ud.Spec.Template.CloneSetTemplate.ObjectMeta,
				Spec:       appsv1.StatefulSetSpec{Template: ud.Spec.Template.CloneSetTemplate.Spec.Template}}}
		}, want: []wantErr{invalid("metadata.name", "must be no more than 37 characters: the StatefulSet of subset subset-a")}},
		{name: "Deployments: only the revision label limits the name", mutate: func(ud *apps.UnitedDeployment) {
			ud.Name = strings.Repeat("a", 52)
			ud.Spec.Template = apps.SubsetTemplate{DeploymentTemplate: &apps.DeploymentTemplateSpec{
				ObjectMeta: ud.Spec.Template.CloneSetTemplate.ObjectMeta,
				Spec:       appsv1.DeploymentSpec{Template: ud.Spec.Template.CloneSetTemplate.Spec.Template}}}
		}},
		{name: "name too long for the revision label on Deployments", mutate: func(ud *apps.UnitedDeployment) {
			ud.Name = strings.Repeat("a", 53)
			ud.Spec.Template = apps.SubsetTemplate{DeploymentTemplate: &apps.DeploymentTemplateSpec{
				ObjectMeta: ud.Spec.Template.CloneSetTemplate.ObjectMeta,
				Spec:       appsv1.DeploymentSpec{Template: ud.Spec.Template.CloneSetTemplate.Spec.Template}}}
		}, want: []wantErr{invalid("metadata.name", "must be no more than 52 characters: its subsets' workloads are labelled controller-revision-hash=<name>-<hash>")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ud := newUnitedDeployment(t)
			tc.mutate(ud)
			expectErrors(t, ValidateUnitedDeployment(ud), tc.want...)
		})
	}
}

func TestValidateUnitedDeploymentUpdate(t *testing.T) {
	cases := []struct {
		name        string
		old, mutate func(ud *apps.UnitedDeployment)
		want        []wantErr
	}{
		{name: "scale", mutate: func(ud *apps.UnitedDeployment) { ud.Spec.Replicas = int32p(20) }},
		{name: "scale below the fixed shares (an HPA may): the division serves earlier subsets first",
			mutate: func(ud *apps.UnitedDeployment) { ud.Spec.Replicas = int32p(1) }},
		{name: "subsets written above replicas", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Topology.Subsets[0].Replicas = intOrStr(9)
		}, want: []wantErr{invalid("spec.topology.subsets[1].replicas")}},
		{name: "new image", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Template.CloneSetTemplate.Spec.Template.Spec.Containers[0].Image = "nginx:1.27"
		}},
		{name: "selector changed", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "other"}}
			ud.Spec.Template.CloneSetTemplate.Spec.Template.Labels = map[string]string{"app": "other"}
		}, want: []wantErr{invalid("spec.selector", "immutable")}},
		{name: "workload kind changed", mutate: func(ud *apps.UnitedDeployment) {
			ud.Spec.Template.AdvancedStatefulSetTemplate = &apps.AdvancedStatefulSetTemplateSpec{Spec: apps.StatefulSetSpec{
				Template: ud.Spec.Template.CloneSetTemplate.Spec.Template}}
			ud.Spec.Template.CloneSetTemplate = nil
		}, want: []wantErr{forbidden("spec.template", "workload kind")}},

		// names: only the subsets an update adds are checked (the name may predate the rule)
		{name: "a stored long name may be updated", old: func(ud *apps.UnitedDeployment) { ud.Name = strings.Repeat("a", 60) },
			mutate: func(ud *apps.UnitedDeployment) { ud.Spec.Replicas = int32p(20) }},
		{name: "a new subset that fits", old: func(ud *apps.UnitedDeployment) { ud.Name = strings.Repeat("a", 37) },
			mutate: func(ud *apps.UnitedDeployment) {
				ud.Spec.Topology.Subsets = append(ud.Spec.Topology.Subsets, apps.Subset{Name: "subset-d"})
			}},
		{name: "a new subset too long for the name", old: func(ud *apps.UnitedDeployment) { ud.Name = strings.Repeat("a", 37) },
			mutate: func(ud *apps.UnitedDeployment) {
				ud.Spec.Topology.Subsets = append(ud.Spec.Topology.Subsets, apps.Subset{Name: "subset-d-longer"})
			}, want: []wantErr{invalid("metadata.name", "must be no more than 30 characters: the CloneSet of subset subset-d-longer")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := newUnitedDeployment(t)
			if tc.old != nil {
				tc.old(old)
			}
			ud := old.DeepCopy()
			tc.mutate(ud)
			expectErrors(t, ValidateUnitedDeploymentUpdate(ud, old), tc.want...)
		})
	}
}

func TestValidateUnitedDeploymentStatusUpdate(t *testing.T) {
	old := newUnitedDeployment(t)
	ud := old.DeepCopy()
	ud.Status.Replicas = 10
	expectErrors(t, ValidateUnitedDeploymentStatusUpdate(ud, old))
	ud.Status.ReadyReplicas = -1
	expectErrors(t, ValidateUnitedDeploymentStatusUpdate(ud, old), invalid("status.readyReplicas"))
}
