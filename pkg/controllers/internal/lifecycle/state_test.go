package lifecycle

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

func TestInitialState(t *testing.T) {
	tests := []struct {
		name string
		lc   *pub.Lifecycle
		want pub.LifecycleStateType
	}{
		{"no lifecycle", nil, pub.LifecycleStateNormal},
		{"empty lifecycle", &pub.Lifecycle{}, pub.LifecycleStateNormal},
		{"preDelete and inPlaceUpdate only", &pub.Lifecycle{PreDelete: labelsHook(true), InPlaceUpdate: labelsHook(false)}, pub.LifecycleStateNormal},
		{"preNormal", &pub.Lifecycle{PreNormal: finalizersHook(false)}, pub.LifecycleStatePreparingNormal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := InitialState(tt.lc); got != tt.want {
				t.Errorf("InitialState = %q, want %q", got, tt.want)
			}
			p := &corev1.Pod{}
			SetInitialState(p, tt.lc, t0)
			if State(p) != tt.want || p.Annotations[pub.LifecycleTimestampKey] != "2026-01-02T03:04:05Z" {
				t.Errorf("SetInitialState: labels %v annotations %v", p.Labels, p.Annotations)
			}
		})
	}
}

func TestSetState(t *testing.T) {
	p := pod(pub.LifecycleStateNormal)
	if SetState(p, pub.LifecycleStateNormal, t1) {
		t.Error("SetState to the same state reported a change")
	}
	if p.Annotations[pub.LifecycleTimestampKey] != "2026-01-01T00:00:00Z" {
		t.Errorf("timestamp rewritten: %v", p.Annotations)
	}
	if !SetState(p, pub.LifecycleStateUpdating, t1) || State(p) != pub.LifecycleStateUpdating ||
		p.Annotations[pub.LifecycleTimestampKey] != "2026-01-02T03:04:15Z" {
		t.Errorf("SetState: labels %v annotations %v", p.Labels, p.Annotations)
	}
	if got := State(&corev1.Pod{}); got != "" {
		t.Errorf("State of an unlabelled pod = %q", got)
	}
}

func TestReadinessGate(t *testing.T) {
	tests := []struct {
		name string
		lc   *pub.Lifecycle
		want bool
	}{
		{"no lifecycle", nil, false},
		{"hooks without mark", &pub.Lifecycle{PreDelete: labelsHook(false), InPlaceUpdate: labelsHook(false)}, false},
		{"preNormal mark is not used", &pub.Lifecycle{PreNormal: labelsHook(true)}, false},
		{"preDelete mark", &pub.Lifecycle{PreDelete: labelsHook(true)}, true},
		{"inPlaceUpdate mark", &pub.Lifecycle{InPlaceUpdate: finalizersHook(true)}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NeedsReadinessGate(tt.lc); got != tt.want {
				t.Errorf("NeedsReadinessGate = %v, want %v", got, tt.want)
			}
			p := &corev1.Pod{}
			InjectReadinessGate(p, tt.lc)
			InjectReadinessGate(p, tt.lc)
			if got := len(p.Spec.ReadinessGates); (got == 1) != tt.want || got > 1 {
				t.Errorf("readiness gates: %v", p.Spec.ReadinessGates)
			}
		})
	}
}
