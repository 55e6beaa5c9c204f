package workloadspread

import (
	"encoding/json"
	"fmt"
	"math"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// Annotation is the pod annotation naming the spread and subset that placed the pod.
const Annotation = appsv1beta1.WorkloadSpreadAnnotation

// legacyAnnotation is the key pods placed before OpenKruise's was adopted carry; they
// are still read as placed.
const legacyAnnotation = "apps.kruise.io/workloadspread"

// Placement is the annotation's value, in OpenKruise's JSON: {"name":..,"subset":..}.
type Placement struct {
	Name   string `json:"name"`
	Subset string `json:"subset"`
}

// String is the annotation value.
func (p Placement) String() string {
	b, _ := json.Marshal(p) // two strings always marshal
	return string(b)
}

// PlacementOf reads a pod's annotation; false when absent or malformed.
func PlacementOf(pod *corev1.Pod) (Placement, bool) {
	v, ok := pod.Annotations[Annotation]
	if !ok {
		if v, ok = pod.Annotations[legacyAnnotation]; !ok {
			return Placement{}, false
		}
	}
	var p Placement
	if err := json.Unmarshal([]byte(v), &p); err != nil || p.Name == "" || p.Subset == "" {
		return Placement{}, false
	}
	return p, true
}

// Unlimited is missingReplicas and MaxReplicas of a subset without maxReplicas.
const Unlimited = -1

// MaxReplicas resolves a subset's maxReplicas against the workload's replicas (a
// percent rounds up, as OpenKruise does); Unlimited when unset.
func MaxReplicas(s *appsv1beta1.WorkloadSpreadSubset, replicas int32) (int32, error) {
	if s.MaxReplicas == nil {
		return Unlimited, nil
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(s.MaxReplicas, int(replicas), true)
	if err != nil {
		return 0, fmt.Errorf("subset %s maxReplicas: %w", s.Name, err)
	}
	// Validation allows no percent above 100%; a stored one must not wrap around.
	return int32(min(max(n, 0), math.MaxInt32)), nil
}
