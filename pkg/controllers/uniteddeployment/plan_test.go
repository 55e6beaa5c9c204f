package uniteddeployment

import (
	"errors"
	"slices"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// exampleUD is the documented example: 10 replicas over 2, 50% and the rest.
func exampleUD() *v1beta1.UnitedDeployment {
	labels := map[string]string{"app": "sample-ud"}
	return &v1beta1.UnitedDeployment{
		ObjectMeta: metav1.ObjectMeta{Name: "sample-ud", Namespace: "ns", UID: "ud-uid", Generation: 3},
		Spec: v1beta1.UnitedDeploymentSpec{
			Replicas: ptr.To[int32](10),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: v1beta1.SubsetTemplate{CloneSetTemplate: &v1beta1.CloneSetTemplateSpec{
				Spec: v1beta1.CloneSetSpec{Template: *baseTemplate()}}},
			Topology: v1beta1.Topology{Subsets: []v1beta1.Subset{
				{Name: "subset-a", NodeSelectorTerm: zoneTerm("a"), Replicas: ptr.To(intstr.FromInt32(2))},
				{Name: "subset-b", NodeSelectorTerm: zoneTerm("b"), Replicas: ptr.To(intstr.FromString("50%"))},
				{Name: "subset-c", NodeSelectorTerm: zoneTerm("c")},
			}},
			UpdateStrategy: v1beta1.UnitedDeploymentUpdateStrategy{Type: v1beta1.ManualUpdateStrategyType,
				ManualUpdate: &v1beta1.ManualUpdate{Partitions: map[string]int32{"subset-b": 2}}},
		},
	}
}

// wl is a stored subset workload, created at second created.
func wl(name, subset string, created int64) workload {
	cs := &v1beta1.CloneSet{ObjectMeta: metav1.ObjectMeta{Name: name, CreationTimestamp: metav1.Unix(created, 0),
		Labels: map[string]string{SubsetLabel: subset}}}
	return readMeta(cs)
}

func names(ws []workload) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.obj.GetName())
	}
	return out
}

func TestCompute(t *testing.T) {
	for _, tc := range []struct {
		name       string
		mutate     func(*v1beta1.UnitedDeployment)
		existing   []workload
		full       map[string]int32
		wantShares map[string]int32
		wantCreate []string
		wantDelete []string
		wantKeep   map[string]string
	}{
		{name: "nothing yet: one workload per subset",
			wantShares: map[string]int32{"subset-a": 2, "subset-b": 5, "subset-c": 3},
			wantCreate: []string{"subset-a", "subset-b", "subset-c"}},
		{name: "scaled to 20 re-divides", mutate: func(ud *v1beta1.UnitedDeployment) { ud.Spec.Replicas = ptr.To[int32](20) },
			existing:   []workload{wl("a1", "subset-a", 1), wl("b1", "subset-b", 1), wl("c1", "subset-c", 1)},
			wantShares: map[string]int32{"subset-a": 2, "subset-b": 10, "subset-c": 8},
			wantKeep:   map[string]string{"subset-a": "a1", "subset-b": "b1", "subset-c": "c1"}},
		{name: "several workloads of a subset: the oldest stays",
			existing:   []workload{wl("a2", "subset-a", 5), wl("a1", "subset-a", 1), wl("b1", "subset-b", 1), wl("c1", "subset-c", 1)},
			wantShares: map[string]int32{"subset-a": 2, "subset-b": 5, "subset-c": 3},
			wantDelete: []string{"a2"},
			wantKeep:   map[string]string{"subset-a": "a1", "subset-b": "b1", "subset-c": "c1"}},
		{name: "a subset removed from the topology loses its workload",
			mutate:     func(ud *v1beta1.UnitedDeployment) { ud.Spec.Topology.Subsets = ud.Spec.Topology.Subsets[1:] },
			existing:   []workload{wl("a1", "subset-a", 1), wl("b1", "subset-b", 1), wl("c1", "subset-c", 1)},
			wantShares: map[string]int32{"subset-b": 5, "subset-c": 5},
			wantDelete: []string{"a1"},
			wantKeep:   map[string]string{"subset-b": "b1", "subset-c": "c1"}},
		{name: "adaptive: a full subset's share moves on",
			existing:   []workload{wl("a1", "subset-a", 1), wl("b1", "subset-b", 1), wl("c1", "subset-c", 1)},
			full:       map[string]int32{"subset-b": 1},
			wantShares: map[string]int32{"subset-a": 2, "subset-b": 1, "subset-c": 7},
			wantKeep:   map[string]string{"subset-a": "a1", "subset-b": "b1", "subset-c": "c1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ud := exampleUD()
			if tc.mutate != nil {
				tc.mutate(ud)
			}
			p, err := Compute(ud, tc.existing, tc.full)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Replicas) != len(tc.wantShares) {
				t.Errorf("shares %v, want %v", p.Replicas, tc.wantShares)
			}
			for k, v := range tc.wantShares {
				if p.Replicas[k] != v {
					t.Errorf("shares %v, want %v", p.Replicas, tc.wantShares)
				}
			}
			if !slices.Equal(p.Create, tc.wantCreate) {
				t.Errorf("create %v, want %v", p.Create, tc.wantCreate)
			}
			if got := names(p.Delete); !slices.Equal(got, tc.wantDelete) {
				t.Errorf("delete %v, want %v", got, tc.wantDelete)
			}
			for subset, name := range tc.wantKeep {
				if p.Keep[subset].obj == nil || p.Keep[subset].obj.GetName() != name {
					t.Errorf("keep of %s: want %s", subset, name)
				}
			}
		})
	}
}

func pendingPod(created time.Time, unschedulable bool) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{CreationTimestamp: metav1.NewTime(created)}}
	if unschedulable {
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable}}
	}
	return p
}

func runningPod() *corev1.Pod {
	return &corev1.Pod{Spec: corev1.PodSpec{NodeName: "n1"}}
}

func TestDecideAdaptive(t *testing.T) {
	now := time.Unix(1000, 0)
	critical, last := 10*time.Second, 60*time.Second
	falseSince := func(at time.Time) *v1beta1.UnitedDeploymentSubsetCondition {
		return &v1beta1.UnitedDeploymentSubsetCondition{Type: v1beta1.UnitedDeploymentSubsetSchedulable, Status: corev1.ConditionFalse, LastTransitionTime: metav1.NewTime(at)}
	}
	for _, tc := range []struct {
		name        string
		prev        *v1beta1.UnitedDeploymentSubsetCondition
		pods        []*corev1.Pod
		wantFull    bool
		wantRoom    int32
		wantStatus  corev1.ConditionStatus
		wantRecheck time.Duration
	}{
		{name: "all scheduled", pods: []*corev1.Pod{runningPod(), runningPod()}, wantStatus: corev1.ConditionTrue},
		{name: "pending but not yet critical: look again when it is",
			pods: []*corev1.Pod{runningPod(), pendingPod(now.Add(-4*time.Second), true)}, wantStatus: corev1.ConditionTrue, wantRecheck: 6 * time.Second},
		{name: "pending without the Unschedulable reason is waiting, not stuck",
			pods: []*corev1.Pod{pendingPod(now.Add(-time.Hour), false)}, wantStatus: corev1.ConditionTrue},
		{name: "unschedulable past critical: full, room for the scheduled ones",
			pods:     []*corev1.Pod{runningPod(), runningPod(), pendingPod(now.Add(-11*time.Second), true)},
			wantFull: true, wantRoom: 2, wantStatus: corev1.ConditionFalse, wantRecheck: last},
		{name: "full stays full for unschedulableLastSeconds", prev: falseSince(now.Add(-20 * time.Second)),
			pods:     []*corev1.Pod{runningPod()},
			wantFull: true, wantRoom: 1, wantStatus: corev1.ConditionFalse, wantRecheck: 40 * time.Second},
		{name: "after unschedulableLastSeconds it is tried again", prev: falseSince(now.Add(-61 * time.Second)),
			pods: []*corev1.Pod{runningPod()}, wantStatus: corev1.ConditionTrue, wantRecheck: critical},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := DecideAdaptive(now, tc.prev, tc.pods, critical, last)
			if d.Full != tc.wantFull || d.Room != tc.wantRoom || d.Condition.Status != tc.wantStatus || d.Recheck != tc.wantRecheck {
				t.Errorf("got full=%v room=%d status=%s recheck=%v, want full=%v room=%d status=%s recheck=%v",
					d.Full, d.Room, d.Condition.Status, d.Recheck, tc.wantFull, tc.wantRoom, tc.wantStatus, tc.wantRecheck)
			}
		})
	}
}

func TestComputeStatus(t *testing.T) {
	ud := exampleUD()
	ud.Status.CurrentRevision = "rev-1"
	withStatus := func(w workload, rev string, replicas, ready, updated int32) workload {
		w.revision, w.replicas, w.ready, w.updated, w.updatedReady = rev, replicas, ready, updated, min(updated, ready)
		return w
	}
	plan := Plan{
		Replicas: map[string]int32{"subset-a": 2, "subset-b": 5, "subset-c": 3},
		Keep: map[string]workload{
			"subset-a": withStatus(wl("a1", "subset-a", 1), "rev-2", 2, 2, 2),
			"subset-b": withStatus(wl("b1", "subset-b", 1), "rev-2", 5, 5, 3),
			"subset-c": withStatus(wl("c1", "subset-c", 1), "rev-1", 3, 3, 3),
		},
	}
	s := computeStatus(ud, plan, nil, "rev-2", 0, nil, time.Unix(5, 0))
	if s.Replicas != 10 || s.ReadyReplicas != 10 || s.UpdatedReplicas != 5 || s.UpdatedReadyReplicas != 5 {
		t.Errorf("counts %d/%d/%d/%d, want 10/10/5/5 (subset-c is still on the old revision)", s.Replicas, s.ReadyReplicas, s.UpdatedReplicas, s.UpdatedReadyReplicas)
	}
	if s.CurrentRevision != "rev-1" || s.UpdateStatus.UpdatedRevision != "rev-2" {
		t.Errorf("revisions current %s updated %s", s.CurrentRevision, s.UpdateStatus.UpdatedRevision)
	}
	if s.UpdateStatus.CurrentPartitions["subset-b"] != 2 || s.UpdateStatus.CurrentPartitions["subset-a"] != 0 {
		t.Errorf("partitions %v", s.UpdateStatus.CurrentPartitions)
	}
	if s.LabelSelector != "app=sample-ud" || s.ObservedGeneration != 3 || s.SubsetReplicas["subset-b"] != 5 {
		t.Errorf("selector %q generation %d shares %v", s.LabelSelector, s.ObservedGeneration, s.SubsetReplicas)
	}
	if len(s.SubsetStatuses) != 3 || s.SubsetStatuses[1].Name != "subset-b" || s.SubsetStatuses[1].Partition != 2 || s.SubsetStatuses[1].Replicas != 5 {
		t.Errorf("subset statuses %+v", s.SubsetStatuses)
	}
	cond := func(s v1beta1.UnitedDeploymentStatus, ty v1beta1.UnitedDeploymentConditionType) corev1.ConditionStatus {
		for _, c := range s.Conditions {
			if c.Type == ty {
				return c.Status
			}
		}
		return ""
	}
	if cond(s, v1beta1.SubsetProvisioned) != corev1.ConditionTrue || cond(s, v1beta1.SubsetUpdated) != corev1.ConditionFalse || cond(s, v1beta1.SubsetFailure) != "" {
		t.Errorf("conditions %+v", s.Conditions)
	}

	// Every subset on the new revision and fully updated: it becomes current.
	for k, w := range plan.Keep {
		plan.Keep[k] = withStatus(w, "rev-2", w.replicas, w.ready, w.replicas)
	}
	s = computeStatus(ud, plan, nil, "rev-2", 0, errors.New("boom"), time.Unix(6, 0))
	if s.CurrentRevision != "rev-2" || cond(s, v1beta1.SubsetUpdated) != corev1.ConditionTrue || cond(s, v1beta1.SubsetFailure) != corev1.ConditionTrue {
		t.Errorf("current %s conditions %+v", s.CurrentRevision, s.Conditions)
	}
}

// Each kind's workload carries the subset's share, partition, selector and template.
func TestBuild(t *testing.T) {
	ud := exampleUD()
	d := desired{subset: &ud.Spec.Topology.Subsets[1], revision: "rev-2", replicas: 5, partition: 2}
	cs, err := buildCloneSet(ud, d)
	if err != nil {
		t.Fatal(err)
	}
	if *cs.Spec.Replicas != 5 || cs.Spec.UpdateStrategy.RollingUpdate.Partition.IntValue() != 2 ||
		cs.Spec.Selector.MatchLabels[SubsetLabel] != "subset-b" || cs.Spec.Template.Labels[SubsetLabel] != "subset-b" ||
		cs.Labels[RevisionLabel] != "rev-2" || cs.GenerateName != "sample-ud-subset-b-" || cs.Annotations[specHashAnnotation] == "" {
		t.Errorf("cloneset %+v", cs)
	}
	if ref := metav1.GetControllerOf(cs); ref == nil || ref.UID != "ud-uid" || ref.APIVersion != "apps.kruise.io/v1alpha1" {
		t.Errorf("owner %+v", ref)
	}
	if cs.Spec.Template.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchExpressions[0].Values[0] != "b" {
		t.Errorf("affinity %+v", cs.Spec.Template.Spec.Affinity)
	}
	again, _ := buildCloneSet(ud, d)
	if again.GetAnnotations()[specHashAnnotation] != cs.Annotations[specHashAnnotation] {
		t.Error("the hash must not change between builds of the same workload")
	}
	d.replicas = 6
	other, _ := buildCloneSet(ud, d)
	if other.GetAnnotations()[specHashAnnotation] == cs.Annotations[specHashAnnotation] {
		t.Error("the hash must change with the replicas")
	}

	ud.Spec.Template = v1beta1.SubsetTemplate{StatefulSetTemplate: &v1beta1.StatefulSetTemplateSpec{Spec: appsv1.StatefulSetSpec{Template: *baseTemplate()}}}
	ss, err := buildStatefulSet(ud, d)
	if err != nil {
		t.Fatal(err)
	}
	if *ss.Spec.UpdateStrategy.RollingUpdate.Partition != 2 || *ss.Spec.Replicas != 6 {
		t.Errorf("statefulset %+v", ss.Spec)
	}
	ud.Spec.Template = v1beta1.SubsetTemplate{DeploymentTemplate: &v1beta1.DeploymentTemplateSpec{Spec: appsv1.DeploymentSpec{Template: *baseTemplate()}}}
	dep, err := buildDeployment(ud, d)
	if err != nil {
		t.Fatal(err)
	}
	if !dep.Spec.Paused {
		t.Errorf("a Deployment subset with a partition must pause its rollout")
	}
}
