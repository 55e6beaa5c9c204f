package inplaceupdate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

func TestInjectReadinessGate(t *testing.T) {
	pod := &corev1.Pod{}
	InjectReadinessGate(pod)
	InjectReadinessGate(pod)
	want := []corev1.PodReadinessGate{{ConditionType: pub.InPlaceUpdateReady}}
	if diff := cmp.Diff(want, pod.Spec.ReadinessGates); diff != "" {
		t.Errorf("gates (-want +got):\n%s", diff)
	}
}

func TestNeedsNotReadyFirst(t *testing.T) {
	tests := []struct {
		strategy *pub.InPlaceUpdateStrategy
		want     bool
	}{
		{nil, false},
		{&pub.InPlaceUpdateStrategy{}, false},
		{&pub.InPlaceUpdateStrategy{GracePeriodSeconds: 10}, true},
	}
	for _, tt := range tests {
		if got := NeedsNotReadyFirst(tt.strategy); got != tt.want {
			t.Errorf("NeedsNotReadyFirst(%+v) = %v, want %v", tt.strategy, got, tt.want)
		}
	}
}

func TestInitialConditions(t *testing.T) {
	gates := func(ts ...corev1.PodConditionType) []corev1.PodReadinessGate {
		var out []corev1.PodReadinessGate
		for _, t := range ts {
			out = append(out, corev1.PodReadinessGate{ConditionType: t})
		}
		return out
	}
	tests := []struct {
		name  string
		gates []corev1.PodReadinessGate
		conds []corev1.PodCondition
		want  []corev1.PodCondition
	}{{
		name:  "both gates: both conditions, for one write",
		gates: gates(inPlaceUpdateReady, kruisePodReady),
		want: []corev1.PodCondition{
			{Type: inPlaceUpdateReady, Status: corev1.ConditionTrue, LastTransitionTime: t0},
			{Type: kruisePodReady, Status: corev1.ConditionTrue, LastTransitionTime: t0},
		},
	}, {
		name:  "no gates: nothing, no write",
		gates: nil,
	}, {
		name:  "condition already set (a lifecycle hook holds the pod), node not reported yet: wait",
		gates: gates(inPlaceUpdateReady, kruisePodReady),
		conds: []corev1.PodCondition{{Type: kruisePodReady, Status: corev1.ConditionFalse}},
	}, {
		name:  "condition already set (a lifecycle hook holds the pod), node reported: the missing one",
		gates: gates(inPlaceUpdateReady, kruisePodReady),
		conds: []corev1.PodCondition{{Type: kruisePodReady, Status: corev1.ConditionFalse}, {Type: corev1.PodReady, Status: corev1.ConditionFalse}},
		want:  []corev1.PodCondition{{Type: inPlaceUpdateReady, Status: corev1.ConditionTrue, LastTransitionTime: t0}},
	}, {
		name:  "InPlaceUpdateReady alone on a new pod: no write of its own, it comes with the node's",
		gates: gates(inPlaceUpdateReady),
	}, {
		name:  "InPlaceUpdateReady alone, scheduled but not reported: still waits",
		gates: gates(inPlaceUpdateReady),
		conds: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue}},
	}, {
		name:  "InPlaceUpdateReady alone, the node reported without it (a real kubelet): set",
		gates: gates(inPlaceUpdateReady),
		conds: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}},
		want:  []corev1.PodCondition{{Type: inPlaceUpdateReady, Status: corev1.ConditionTrue, LastTransitionTime: t0}},
	}, {
		name:  "InPlaceUpdateReady set by the node (kwok's pod-ready stage): nothing",
		gates: gates(inPlaceUpdateReady),
		conds: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}, {Type: inPlaceUpdateReady, Status: corev1.ConditionTrue}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &corev1.Pod{Spec: corev1.PodSpec{ReadinessGates: tt.gates}, Status: corev1.PodStatus{Conditions: tt.conds}}
			if diff := cmp.Diff(tt.want, InitialConditions(pod, t0)); diff != "" {
				t.Errorf("InitialConditions (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSetReadyCondition(t *testing.T) {
	readyTrue := corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: t0}
	gateTrue := corev1.PodCondition{Type: inPlaceUpdateReady, Status: corev1.ConditionTrue, LastTransitionTime: t0}
	gateFalse := corev1.PodCondition{Type: inPlaceUpdateReady, Status: corev1.ConditionFalse, Reason: ReasonStartInPlaceUpdate, LastTransitionTime: t0}
	readyFalse := corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: "ReadinessGatesNotReady",
		Message: `the status of pod readiness gate "InPlaceUpdateReady" is not "True", but False`, LastTransitionTime: t1}
	tests := []struct {
		name        string
		conds       []corev1.PodCondition
		status      corev1.ConditionStatus
		reason      string
		want        []corev1.PodCondition
		wantChanged bool
	}{{
		name:   "True to False also makes the pod unready",
		conds:  []corev1.PodCondition{readyTrue, gateTrue},
		status: corev1.ConditionFalse, reason: ReasonStartInPlaceUpdate,
		want: []corev1.PodCondition{readyFalse,
			{Type: inPlaceUpdateReady, Status: corev1.ConditionFalse, Reason: ReasonStartInPlaceUpdate, LastTransitionTime: t1}},
		wantChanged: true,
	}, {
		name:   "already False: no change, no write",
		conds:  []corev1.PodCondition{gateFalse, {Type: corev1.PodReady, Status: corev1.ConditionFalse}},
		status: corev1.ConditionFalse, reason: ReasonStartInPlaceUpdate,
		want: []corev1.PodCondition{gateFalse, {Type: corev1.PodReady, Status: corev1.ConditionFalse}},
	}, {
		name:        "False to True: Ready is left to the kubelet",
		conds:       []corev1.PodCondition{gateFalse},
		status:      corev1.ConditionTrue,
		want:        []corev1.PodCondition{{Type: inPlaceUpdateReady, Status: corev1.ConditionTrue, LastTransitionTime: t1}},
		wantChanged: true,
	}, {
		name:        "new condition",
		status:      corev1.ConditionTrue,
		want:        []corev1.PodCondition{{Type: inPlaceUpdateReady, Status: corev1.ConditionTrue, LastTransitionTime: t1}},
		wantChanged: true,
	}, {
		name:        "reason change keeps the transition time",
		conds:       []corev1.PodCondition{gateFalse, {Type: corev1.PodReady, Status: corev1.ConditionFalse}},
		status:      corev1.ConditionFalse,
		reason:      "Other",
		want:        []corev1.PodCondition{{Type: inPlaceUpdateReady, Status: corev1.ConditionFalse, Reason: "Other", LastTransitionTime: t0}, {Type: corev1.PodReady, Status: corev1.ConditionFalse}},
		wantChanged: true,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &corev1.Pod{Status: corev1.PodStatus{Conditions: tt.conds}}
			if got := SetReadyCondition(pod, tt.status, tt.reason, t1); got != tt.wantChanged {
				t.Errorf("changed = %v, want %v", got, tt.wantChanged)
			}
			if diff := cmp.Diff(tt.want, pod.Status.Conditions); diff != "" {
				t.Errorf("conditions (-want +got):\n%s", diff)
			}
		})
	}
}
