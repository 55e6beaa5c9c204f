package v1alpha1

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

func TestDaemonSetDefaults(t *testing.T) {
	intStr := func(i int32) *intstr.IntOrString { v := intstr.FromInt32(i); return &v }
	cases := []struct {
		name string
		in   *RollingUpdateDaemonSet
		want RollingUpdateDaemonSet
	}{
		{"nothing set", nil, RollingUpdateDaemonSet{Type: StandardRollingUpdateType,
			MaxUnavailable: intStr(1), MaxSurge: intStr(0), Partition: new(int32(0))}},
		{"Surging becomes Standard with surge", &RollingUpdateDaemonSet{Type: DeprecatedSurgingRollingUpdateType},
			RollingUpdateDaemonSet{Type: StandardRollingUpdateType, MaxUnavailable: intStr(0), MaxSurge: intStr(1), Partition: new(int32(0))}},
		{"maxSurge alone leaves maxUnavailable unset", &RollingUpdateDaemonSet{MaxSurge: intStr(2)},
			RollingUpdateDaemonSet{Type: StandardRollingUpdateType, MaxSurge: intStr(2), Partition: new(int32(0))}},
		{"InPlaceIfPossible kept", &RollingUpdateDaemonSet{Type: InplaceRollingUpdateType, Partition: new(int32(3))},
			RollingUpdateDaemonSet{Type: InplaceRollingUpdateType, MaxUnavailable: intStr(1), MaxSurge: intStr(0), Partition: new(int32(3))}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ds := &DaemonSet{Spec: DaemonSetSpec{UpdateStrategy: DaemonSetUpdateStrategy{RollingUpdate: tc.in}}}
			SetObjectDefaults_DaemonSet(ds)
			s := ds.Spec.UpdateStrategy
			if s.Type != RollingUpdateDaemonSetStrategyType {
				t.Errorf("type = %q, want RollingUpdate", s.Type)
			}
			got := s.RollingUpdate
			if got.Type != tc.want.Type || !sameIntStr(got.MaxUnavailable, tc.want.MaxUnavailable) ||
				!sameIntStr(got.MaxSurge, tc.want.MaxSurge) || *got.Partition != *tc.want.Partition {
				t.Errorf("rollingUpdate = %+v, want %+v", *got, tc.want)
			}
			if *ds.Spec.RevisionHistoryLimit != 10 || ds.Spec.BurstReplicas.IntValue() != 250 {
				t.Errorf("revisionHistoryLimit %d, burstReplicas %v; want 10, 250", *ds.Spec.RevisionHistoryLimit, ds.Spec.BurstReplicas)
			}
			if ds.Spec.Template.Spec.RestartPolicy != "Always" {
				t.Errorf("pod template not defaulted: restartPolicy %q", ds.Spec.Template.Spec.RestartPolicy)
			}
		})
	}

	onDelete := &DaemonSet{Spec: DaemonSetSpec{UpdateStrategy: DaemonSetUpdateStrategy{Type: OnDeleteDaemonSetStrategyType}}}
	SetObjectDefaults_DaemonSet(onDelete)
	if onDelete.Spec.UpdateStrategy.RollingUpdate != nil {
		t.Errorf("OnDelete got rolling update parameters: %+v", onDelete.Spec.UpdateStrategy.RollingUpdate)
	}
}

func sameIntStr(a, b *intstr.IntOrString) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

func TestDaemonSetConversion(t *testing.T) {
	in := &DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "agent", Annotations: map[string]string{ProgressiveCreatePodAnnotation: "true"}},
		Status:     DaemonSetStatus{DaemonSetHash: "5d8f"},
	}
	hub := &apps.DaemonSet{}
	if err := Convert_v1alpha1_DaemonSet_To_apps_DaemonSet(in, hub, nil); err != nil {
		t.Fatal(err)
	}
	if ss := hub.Spec.ScaleStrategy; ss == nil || !ss.PartitionedScaling {
		t.Errorf("annotation not read into scaleStrategy: %+v", ss)
	}
	if hub.Status.UpdateRevision != "5d8f" {
		t.Errorf("updateRevision = %q, want daemonSetHash 5d8f", hub.Status.UpdateRevision)
	}

	hub = &apps.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "agent", Annotations: map[string]string{"keep": "me"}},
		Spec:       apps.DaemonSetSpec{ScaleStrategy: &apps.DaemonSetScaleStrategy{PartitionedScaling: true}},
		Status:     apps.DaemonSetStatus{UpdateRevision: "77aa"},
	}
	out := &DaemonSet{}
	if err := Convert_apps_DaemonSet_To_v1alpha1_DaemonSet(hub, out, nil); err != nil {
		t.Fatal(err)
	}
	if out.Annotations[ProgressiveCreatePodAnnotation] != "true" || out.Annotations["keep"] != "me" {
		t.Errorf("annotations = %v, want the progressive-create-pod annotation added", out.Annotations)
	}
	if _, shared := hub.Annotations[ProgressiveCreatePodAnnotation]; shared {
		t.Errorf("conversion wrote into the hub's annotation map")
	}
	if out.Status.DaemonSetHash != "77aa" {
		t.Errorf("daemonSetHash = %q, want 77aa", out.Status.DaemonSetHash)
	}
}
