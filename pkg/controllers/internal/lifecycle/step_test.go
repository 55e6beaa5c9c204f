package lifecycle

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
)

func TestTransition(t *testing.T) {
	type cond struct {
		status  corev1.ConditionStatus
		message string
	}
	tests := []struct {
		name       string
		pod        *corev1.Pod
		to         pub.LifecycleStateType
		mark       bool
		wantNil    bool
		wantStatus bool
		wantKruise *cond // KruisePodReady afterwards; nil: absent
		wantReady  corev1.ConditionStatus
	}{
		{name: "unlabelled pod to Normal: label only", pod: pod(""), to: pub.LifecycleStateNormal, wantReady: corev1.ConditionTrue},
		{name: "same state: no write", pod: pod(pub.LifecycleStateNormal), to: pub.LifecycleStateNormal, wantNil: true},
		{name: "same state with gate and no holder: no write", pod: pod(pub.LifecycleStateNormal, withGate), to: pub.LifecycleStateNormal, wantNil: true},
		{
			name: "PreparingDelete, mark, gate: condition False and Ready False in one status write",
			pod:  pod(pub.LifecycleStateNormal, withGate), to: pub.LifecycleStatePreparingDelete, mark: true,
			wantStatus: true, wantKruise: &cond{corev1.ConditionFalse, msgDelete}, wantReady: corev1.ConditionFalse,
		},
		{
			name: "PreparingDelete, mark, no gate: label only",
			pod:  pod(pub.LifecycleStateNormal), to: pub.LifecycleStatePreparingDelete, mark: true,
			wantReady: corev1.ConditionTrue,
		},
		{
			name: "PreparingDelete without mark: label only",
			pod:  pod(pub.LifecycleStateNormal, withGate), to: pub.LifecycleStatePreparingDelete,
			wantKruise: &cond{corev1.ConditionTrue, ""}, wantReady: corev1.ConditionTrue,
		},
		{
			name: "already PreparingDelete and held: no write",
			pod:  pod(pub.LifecycleStatePreparingDelete, withGate, heldBy(msgDelete)), to: pub.LifecycleStatePreparingDelete, mark: true,
			wantNil: true,
		},
		{
			name: "already PreparingDelete, mark turned on later: status only",
			pod:  pod(pub.LifecycleStatePreparingDelete, withGate), to: pub.LifecycleStatePreparingDelete, mark: true,
			wantStatus: true, wantKruise: &cond{corev1.ConditionFalse, msgDelete}, wantReady: corev1.ConditionFalse,
		},
		{
			name: "condition lists our key but is True: repaired",
			pod: pod(pub.LifecycleStatePreparingDelete, withGate, func(p *corev1.Pod) {
				podcondition.Find(p.Status.Conditions, kruisePodReady).Message = msgDelete
			}), to: pub.LifecycleStatePreparingDelete, mark: true,
			wantStatus: true, wantKruise: &cond{corev1.ConditionFalse, msgDelete}, wantReady: corev1.ConditionFalse,
		},
		{
			name: "PreparingUpdate, mark, gate without condition yet: condition created False",
			pod: pod(pub.LifecycleStateNormal, func(p *corev1.Pod) {
				p.Spec.ReadinessGates = []corev1.PodReadinessGate{{ConditionType: kruisePodReady}}
			}), to: pub.LifecycleStatePreparingUpdate, mark: true,
			wantStatus: true, wantKruise: &cond{corev1.ConditionFalse, msgUpdate}, wantReady: corev1.ConditionFalse,
		},
		{
			name: "PreparingUpdate keeps another holder, sorted",
			pod:  pod(pub.LifecycleStateNormal, withGate, heldBy(msgOther)), to: pub.LifecycleStatePreparingUpdate, mark: true,
			wantStatus: true, wantKruise: &cond{corev1.ConditionFalse, `[{"userAgent":"Lifecycle","key":"preUpdateHook"},{"userAgent":"Other","key":"x"}]`},
			wantReady: corev1.ConditionFalse,
		},
		{
			name: "Updating keeps the hold",
			pod:  pod(pub.LifecycleStatePreparingUpdate, withGate, heldBy(msgUpdate)), to: pub.LifecycleStateUpdating, mark: true,
			wantKruise: &cond{corev1.ConditionFalse, msgUpdate}, wantReady: corev1.ConditionTrue,
		},
		{
			name: "Updated releases the update hold: True",
			pod:  pod(pub.LifecycleStateUpdating, withGate, heldBy(msgUpdate)), to: pub.LifecycleStateUpdated, mark: true,
			wantStatus: true, wantKruise: &cond{corev1.ConditionTrue, ""}, wantReady: corev1.ConditionTrue,
		},
		{
			name: "Updated releases even without mark",
			pod:  pod(pub.LifecycleStateUpdating, withGate, heldBy(msgUpdate)), to: pub.LifecycleStateUpdated,
			wantStatus: true, wantKruise: &cond{corev1.ConditionTrue, ""}, wantReady: corev1.ConditionTrue,
		},
		{
			name: "Updated keeps another holder: still False",
			pod: pod(pub.LifecycleStateUpdating, withGate,
				heldBy(`[{"userAgent":"Lifecycle","key":"preUpdateHook"},{"userAgent":"Other","key":"x"}]`)),
			to: pub.LifecycleStateUpdated, mark: true,
			wantStatus: true, wantKruise: &cond{corev1.ConditionFalse, msgOther}, wantReady: corev1.ConditionTrue,
		},
		{
			name: "Updated does not release a delete hold",
			pod:  pod(pub.LifecycleStateUpdating, withGate, heldBy(msgDelete)), to: pub.LifecycleStateUpdated, mark: true,
			wantKruise: &cond{corev1.ConditionFalse, msgDelete}, wantReady: corev1.ConditionTrue,
		},
		{
			name: "Normal releases the update hold (Updating straight to Normal)",
			pod:  pod(pub.LifecycleStateUpdating, withGate, heldBy(msgUpdate)), to: pub.LifecycleStateNormal, mark: true,
			wantStatus: true, wantKruise: &cond{corev1.ConditionTrue, ""}, wantReady: corev1.ConditionTrue,
		},
		{
			name: "another holder's False without a list is left alone",
			pod:  pod(pub.LifecycleStateUpdated, withGate, heldBy("set by someone")), to: pub.LifecycleStateNormal,
			wantKruise: &cond{corev1.ConditionFalse, "set by someone"}, wantReady: corev1.ConditionTrue,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := tt.pod.DeepCopy()
			got, status := Transition(tt.pod, tt.to, tt.mark, t1)
			if !reflect.DeepEqual(tt.pod, orig) {
				t.Fatal("input pod modified")
			}
			if tt.wantNil {
				if got != nil || status {
					t.Fatalf("Transition = %v, %v; want no write", got != nil, status)
				}
				return
			}
			if got == nil {
				t.Fatal("Transition = nil, want a pod")
			}
			if status != tt.wantStatus {
				t.Errorf("needsStatusWrite = %v, want %v", status, tt.wantStatus)
			}
			if State(got) != tt.to {
				t.Errorf("state = %q, want %q", State(got), tt.to)
			}
			if State(orig) != tt.to && got.Annotations[pub.LifecycleTimestampKey] != "2026-01-02T03:04:15Z" {
				t.Errorf("timestamp = %q", got.Annotations[pub.LifecycleTimestampKey])
			}
			c := podcondition.Find(got.Status.Conditions, kruisePodReady)
			switch {
			case tt.wantKruise == nil && c != nil:
				t.Errorf("KruisePodReady = %+v, want none", c)
			case tt.wantKruise != nil && c == nil:
				t.Errorf("KruisePodReady missing")
			case tt.wantKruise != nil && (c.Status != tt.wantKruise.status || c.Message != tt.wantKruise.message):
				t.Errorf("KruisePodReady = %s %q, want %s %q", c.Status, c.Message, tt.wantKruise.status, tt.wantKruise.message)
			}
			if c != nil {
				before := podcondition.Find(orig.Status.Conditions, kruisePodReady)
				moved := before == nil || before.Status != c.Status
				if moved != c.LastTransitionTime.Equal(&t1) {
					t.Errorf("KruisePodReady lastTransitionTime = %v (status moved: %v)", c.LastTransitionTime, moved)
				}
			}
			if r := podcondition.Find(got.Status.Conditions, corev1.PodReady); r.Status != tt.wantReady {
				t.Errorf("Ready = %s, want %s", r.Status, tt.wantReady)
			} else if r.Status == corev1.ConditionFalse && r.Reason != "ReadinessGatesNotReady" {
				t.Errorf("Ready reason = %q", r.Reason)
			}
		})
	}
}

func TestStepRehook(t *testing.T) {
	hook := &pub.LifecycleHook{LabelsHandler: map[string]string{blockLabel: "true"}, FinalizersHandler: []string{blockFin, "example.io/two"}}
	p := pod(pub.LifecycleStateUpdated, withFinalizer)
	got, status := Step{To: pub.LifecycleStatePreparingUpdate, Rehook: hook}.Apply(p, t1)
	if got == nil || status {
		t.Fatalf("Apply = %v, %v", got != nil, status)
	}
	if got.Labels[blockLabel] != "true" || State(got) != pub.LifecycleStatePreparingUpdate {
		t.Errorf("labels = %v", got.Labels)
	}
	if !reflect.DeepEqual(got.Finalizers, []string{blockFin, "example.io/two"}) {
		t.Errorf("finalizers = %v", got.Finalizers)
	}
	// Everything in place: nothing to write.
	if again, _ := (Step{To: pub.LifecycleStatePreparingUpdate, Rehook: hook}).Apply(got, t1); again != nil {
		t.Error("second Apply wants a write")
	}
	// Rehook alone (state already right) is a write.
	q := pod(pub.LifecycleStatePreparingUpdate)
	if again, _ := (Step{To: pub.LifecycleStatePreparingUpdate, Rehook: hook}).Apply(q, t1); again == nil {
		t.Error("Rehook of a pod without the handlers wants no write")
	}
}
