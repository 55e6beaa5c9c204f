package v1beta1

import "k8s.io/utils/ptr"

// DefaultRescheduleCriticalSeconds is how long an Adaptive pod may stay unschedulable
// when the spread does not say (OpenKruise's 30 s).
const DefaultRescheduleCriticalSeconds = 30

// SetDefaults_WorkloadSpread: an Adaptive strategy gets rescheduleCriticalSeconds 30
// (only Adaptive: a default that depends on the type). Fixed when the type is unset is
// a marker.
func SetDefaults_WorkloadSpread(obj *WorkloadSpread) {
	s := &obj.Spec.ScheduleStrategy
	if s.Type == AdaptiveWorkloadSpreadScheduleStrategyType {
		if s.Adaptive == nil {
			s.Adaptive = &AdaptiveWorkloadSpreadStrategy{}
		}
		if s.Adaptive.RescheduleCriticalSeconds == nil {
			s.Adaptive.RescheduleCriticalSeconds = ptr.To[int32](DefaultRescheduleCriticalSeconds)
		}
	}
}
