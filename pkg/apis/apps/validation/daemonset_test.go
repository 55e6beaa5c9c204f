package validation

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// newDaemonSet returns a valid, defaulted Advanced DaemonSet.
func newDaemonSet(t *testing.T) *apps.DaemonSet {
	t.Helper()
	labels := map[string]string{"app": "ds"}
	v := &v1alpha1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "ds-demo", Namespace: "default", ResourceVersion: "1"},
		Spec: v1alpha1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: podTemplate(labels),
		},
	}
	v1alpha1.SetObjectDefaults_DaemonSet(v)
	out := &apps.DaemonSet{}
	toInternal(t, v, out)
	return out
}

func rollingUpdate(ds *apps.DaemonSet) *apps.RollingUpdateDaemonSet {
	return ds.Spec.UpdateStrategy.RollingUpdate
}

func TestValidateDaemonSet(t *testing.T) {
	const ru = "spec.updateStrategy.rollingUpdate"
	cases := []struct {
		name   string
		mutate func(ds *apps.DaemonSet)
		want   []wantErr
	}{
		{name: "defaulted minimal DaemonSet", mutate: func(*apps.DaemonSet) {}},

		// metadata
		{name: "name with uppercase", mutate: func(ds *apps.DaemonSet) { ds.Name = "Bad_Name" },
			want: []wantErr{invalid("metadata.name")}},
		{name: "longest name whose revision label fits", mutate: func(ds *apps.DaemonSet) { ds.Name = strings.Repeat("a", 52) }},
		{name: "name too long for the revision label",
			mutate: func(ds *apps.DaemonSet) { ds.Name = strings.Repeat("a", 53) },
			want:   []wantErr{invalid("metadata.name", "must be no more than 52 characters")}},
		{name: "no namespace", mutate: func(ds *apps.DaemonSet) { ds.Namespace = "" },
			want: []wantErr{required("metadata.namespace")}},

		// selector and template
		{name: "selector does not match template labels",
			mutate: func(ds *apps.DaemonSet) { ds.Spec.Template.Labels = map[string]string{"app": "other"} },
			want:   []wantErr{invalid("spec.template.metadata.labels", "selector does not match template labels")}},
		{name: "empty selector",
			mutate: func(ds *apps.DaemonSet) { ds.Spec.Selector = &metav1.LabelSelector{} },
			want:   []wantErr{invalid("spec.selector", "empty selector is invalid for DaemonSet")}},
		{name: "nil selector", mutate: func(ds *apps.DaemonSet) { ds.Spec.Selector = nil },
			want: []wantErr{required("spec.selector")}},
		{name: "restartPolicy OnFailure",
			mutate: func(ds *apps.DaemonSet) { ds.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure },
			want:   []wantErr{notSupported("spec.template.spec.restartPolicy")}},
		{name: "activeDeadlineSeconds",
			mutate: func(ds *apps.DaemonSet) { ds.Spec.Template.Spec.ActiveDeadlineSeconds = new(int64(30)) },
			want:   []wantErr{forbidden("spec.template.spec.activeDeadlineSeconds", "DaemonSet")}},
		{name: "container without image",
			mutate: func(ds *apps.DaemonSet) { ds.Spec.Template.Spec.Containers[0].Image = "" },
			want:   []wantErr{required("spec.template.spec.containers[0].image")}},

		// counts
		{name: "minReadySeconds -1", mutate: func(ds *apps.DaemonSet) { ds.Spec.MinReadySeconds = -1 },
			want: []wantErr{invalid("spec.minReadySeconds")}},
		{name: "revisionHistoryLimit -1", mutate: func(ds *apps.DaemonSet) { ds.Spec.RevisionHistoryLimit = int32p(-1) },
			want: []wantErr{invalid("spec.revisionHistoryLimit")}},
		{name: "burstReplicas percent", mutate: func(ds *apps.DaemonSet) { ds.Spec.BurstReplicas = strOrStr("50%") }},
		{name: "burstReplicas not a percent", mutate: func(ds *apps.DaemonSet) { ds.Spec.BurstReplicas = strOrStr("many") },
			want: []wantErr{invalid("spec.burstReplicas")}},

		// update strategy
		{name: "OnDelete", mutate: func(ds *apps.DaemonSet) {
			ds.Spec.UpdateStrategy = apps.DaemonSetUpdateStrategy{Type: apps.OnDeleteDaemonSetStrategyType}
		}},
		{name: "unknown strategy type",
			mutate: func(ds *apps.DaemonSet) { ds.Spec.UpdateStrategy.Type = "Recreate" },
			want:   []wantErr{notSupported("spec.updateStrategy.type")}},
		{name: "RollingUpdate without parameters",
			mutate: func(ds *apps.DaemonSet) { ds.Spec.UpdateStrategy.RollingUpdate = nil },
			want:   []wantErr{required(ru)}},
		{name: "InPlaceIfPossible", mutate: func(ds *apps.DaemonSet) { rollingUpdate(ds).Type = apps.InplaceRollingUpdateType }},
		{name: "unknown rollingUpdateType",
			mutate: func(ds *apps.DaemonSet) { rollingUpdate(ds).Type = "Inplace" },
			want:   []wantErr{notSupported(ru + ".rollingUpdateType")}},
		{name: "surge instead of unavailable", mutate: func(ds *apps.DaemonSet) {
			rollingUpdate(ds).MaxUnavailable = intOrStr(0)
			rollingUpdate(ds).MaxSurge = strOrStr("10%")
		}},
		{name: "maxSurge and maxUnavailable both 0",
			mutate: func(ds *apps.DaemonSet) { rollingUpdate(ds).MaxUnavailable = intOrStr(0) },
			want:   []wantErr{invalid(ru+".maxUnavailable", "may not be 0 when maxSurge is 0")}},
		{name: "maxSurge and maxUnavailable both 0%", mutate: func(ds *apps.DaemonSet) {
			rollingUpdate(ds).MaxUnavailable = strOrStr("0%")
			rollingUpdate(ds).MaxSurge = strOrStr("0%")
		},
			want: []wantErr{invalid(ru+".maxUnavailable", "may not be 0 when maxSurge is 0")}},
		{name: "maxSurge and maxUnavailable both unset", mutate: func(ds *apps.DaemonSet) {
			rollingUpdate(ds).MaxUnavailable = nil
			rollingUpdate(ds).MaxSurge = nil
		},
			want: []wantErr{invalid(ru+".maxUnavailable", "may not be 0 when maxSurge is 0")}},
		{name: "maxSurge and maxUnavailable both non-zero",
			mutate: func(ds *apps.DaemonSet) { rollingUpdate(ds).MaxSurge = intOrStr(1) },
			want:   []wantErr{invalid(ru+".maxSurge", "may not be set when maxUnavailable is non-zero")}},
		{name: "maxUnavailable above 100%",
			mutate: func(ds *apps.DaemonSet) { rollingUpdate(ds).MaxUnavailable = strOrStr("150%") },
			want:   []wantErr{invalid(ru+".maxUnavailable", "100%")}},
		{name: "maxSurge negative", mutate: func(ds *apps.DaemonSet) {
			rollingUpdate(ds).MaxSurge = intOrStr(-1)
		},
			want: []wantErr{invalid(ru + ".maxSurge")}},
		{name: "InPlaceIfPossible with surge", mutate: func(ds *apps.DaemonSet) {
			rollingUpdate(ds).Type = apps.InplaceRollingUpdateType
			rollingUpdate(ds).MaxUnavailable = intOrStr(0)
			rollingUpdate(ds).MaxSurge = intOrStr(1)
		},
			want: []wantErr{forbidden(ru+".maxSurge", "InPlaceIfPossible")}},
		{name: "Surging with unavailable (never stored: defaulting makes it Standard)", mutate: func(ds *apps.DaemonSet) {
			rollingUpdate(ds).Type = apps.DeprecatedSurgingRollingUpdateType
		},
			want: []wantErr{forbidden(ru+".maxUnavailable", "Surging")}},
		{name: "partition above the nodes", mutate: func(ds *apps.DaemonSet) { rollingUpdate(ds).Partition = int32p(1000) }},
		{name: "partition -1", mutate: func(ds *apps.DaemonSet) { rollingUpdate(ds).Partition = int32p(-1) },
			want: []wantErr{invalid(ru + ".partition")}},
		{name: "node selector", mutate: func(ds *apps.DaemonSet) {
			rollingUpdate(ds).Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/hostname": "node1"}}
		}},
		{name: "malformed node selector", mutate: func(ds *apps.DaemonSet) {
			rollingUpdate(ds).Selector = &metav1.LabelSelector{
				MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "zone", Operator: "Near"}}}
		},
			want: []wantErr{invalid(ru + ".selector.matchExpressions[0].operator")}},

		// lifecycle
		{name: "preDelete hook", mutate: func(ds *apps.DaemonSet) {
			ds.Spec.Lifecycle = &pub.Lifecycle{PreDelete: &pub.LifecycleHook{LabelsHandler: map[string]string{"example.io/block-deleting": "true"}}}
		}},
		{name: "lifecycle hook with a bad label value", mutate: func(ds *apps.DaemonSet) {
			ds.Spec.Lifecycle = &pub.Lifecycle{PreDelete: &pub.LifecycleHook{LabelsHandler: map[string]string{"ok": "bad value"}}}
		},
			want: []wantErr{invalid("spec.lifecycle.preDelete.labelsHandler")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ds := newDaemonSet(t)
			tc.mutate(ds)
			expectErrors(t, ValidateDaemonSet(ds), tc.want...)
		})
	}
}

func TestValidateDaemonSetUpdate(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(ds *apps.DaemonSet)
		want   []wantErr
	}{
		{name: "no change", mutate: func(*apps.DaemonSet) {}},
		{name: "template, strategy and hooks change", mutate: func(ds *apps.DaemonSet) {
			ds.Spec.Template.Spec.Containers[0].Image = "nginx:latest"
			rollingUpdate(ds).Partition = int32p(3)
			rollingUpdate(ds).Paused = new(true)
			ds.Spec.MinReadySeconds = 5
			ds.Spec.ScaleStrategy = &apps.DaemonSetScaleStrategy{PartitionedScaling: true}
		}},
		{name: "selector change", mutate: func(ds *apps.DaemonSet) {
			ds.Spec.Selector.MatchLabels["tier"] = "node"
			ds.Spec.Template.Labels["tier"] = "node"
		},
			want: []wantErr{invalid("spec.selector", "immutable")}},
		{name: "update still validates the spec",
			mutate: func(ds *apps.DaemonSet) { rollingUpdate(ds).Partition = int32p(-1) },
			want:   []wantErr{invalid("spec.updateStrategy.rollingUpdate.partition")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := newDaemonSet(t)
			ds := old.DeepCopy()
			ds.ResourceVersion = "2"
			tc.mutate(ds)
			expectErrors(t, ValidateDaemonSetUpdate(ds, old), tc.want...)
		})
	}
}

func TestValidateDaemonSetStatusUpdate(t *testing.T) {
	valid := apps.DaemonSetStatus{
		CurrentNumberScheduled: 3, DesiredNumberScheduled: 3, NumberReady: 2, UpdatedNumberScheduled: 1,
		NumberAvailable: 2, NumberUnavailable: 1, ObservedGeneration: 2, CollisionCount: int32p(1), UpdateRevision: "abc",
	}
	cases := []struct {
		name   string
		mutate func(s *apps.DaemonSetStatus)
		want   []wantErr
	}{
		{name: "consistent status", mutate: func(*apps.DaemonSetStatus) {}},
		{name: "negative counts", mutate: func(s *apps.DaemonSetStatus) {
			s.DesiredNumberScheduled = -1
			s.NumberMisscheduled = -1
			s.ObservedGeneration = -1
		},
			want: []wantErr{invalid("status.desiredNumberScheduled"), invalid("status.numberMisscheduled"), invalid("status.observedGeneration")}},
		{name: "collisionCount down", mutate: func(s *apps.DaemonSetStatus) { s.CollisionCount = int32p(0) },
			want: []wantErr{invalid("status.collisionCount", "decremented")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := newDaemonSet(t)
			old.Status = *valid.DeepCopy()
			ds := old.DeepCopy()
			ds.ResourceVersion = "2"
			tc.mutate(&ds.Status)
			expectErrors(t, ValidateDaemonSetStatusUpdate(ds, old), tc.want...)
		})
	}
}

func TestValidateDaemonSetRollback(t *testing.T) {
	expectErrors(t, ValidateDaemonSetRollback(&apps.DaemonSetRollback{Name: "agent", ToRevision: 0}))
	expectErrors(t, ValidateDaemonSetRollback(&apps.DaemonSetRollback{ToRevision: -2}), invalid("toRevision"))
	expectErrors(t, ValidateDaemonSetRollback(&apps.DaemonSetRollback{Name: "Bad_Name"}), invalid("name"))
}

func TestDaemonSetNilsDoNotPanic(t *testing.T) {
	ds := newDaemonSet(t)
	ds.Spec.Selector = nil
	ds.Spec.UpdateStrategy.RollingUpdate = &apps.RollingUpdateDaemonSet{}
	ds.Spec.Lifecycle = &pub.Lifecycle{}
	expectErrors(t, ValidateDaemonSet(ds), required("spec.selector"),
		invalid("spec.updateStrategy.rollingUpdate.maxUnavailable"))
	if errs := ValidateDaemonSet(nil); len(errs) != 1 {
		t.Errorf("nil DaemonSet: want one error, got %v", errs)
	}
	if errs := ValidateDaemonSetUpdate(nil, ds); len(errs) != 1 {
		t.Errorf("nil DaemonSet update: want one error, got %v", errs)
	}
	if errs := ValidateDaemonSetStatusUpdate(ds, nil); len(errs) != 1 {
		t.Errorf("nil old DaemonSet: want one error, got %v", errs)
	}
	if errs := ValidateDaemonSetRollback(nil); len(errs) != 1 {
		t.Errorf("nil rollback: want one error, got %v", errs)
	}
}
