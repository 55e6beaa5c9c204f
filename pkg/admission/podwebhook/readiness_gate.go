package podwebhook

import (
	"context"

	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// kindsSettingKruisePodReady are the Kruise workloads whose controllers give a new pod
// its KruisePodReady condition (in the pod's first status write). A pod of any other
// kind would carry a gate nobody opens and never become Ready, so only these get it.
var kindsSettingKruisePodReady = map[string]bool{"CloneSet": true, "StatefulSet": true}

// injectReadinessGate adds the KruisePodReady readiness gate to a pod its Kruise
// workload controls, so lifecycle hooks can later take it out of endpoints before
// deleting or updating it (gates cannot be added to a running pod).
func injectReadinessGate(pod *corev1.Pod) bool {
	owner := metav1.GetControllerOf(pod)
	if owner == nil || !kindsSettingKruisePodReady[owner.Kind] {
		return false
	}
	if gv, err := schema.ParseGroupVersion(owner.APIVersion); err != nil || gv.Group != apps.GroupName {
		return false
	}
	for _, g := range pod.Spec.ReadinessGates {
		if g.ConditionType == pub.KruisePodReadyConditionType {
			return false
		}
	}
	pod.Spec.ReadinessGates = append(pod.Spec.ReadinessGates, corev1.PodReadinessGate{ConditionType: pub.KruisePodReadyConditionType})
	return true
}

// readinessGate is the handler of injectReadinessGate.
func readinessGate() Handler {
	return Handler{Name: "kruise-pod-ready-gate", Rules: podCreates,
		CallClauses: staticCallClause("kruise-pod-ready-gate", readinessGateClause),
		Mutate: func(_ context.Context, _ *admissionv1.AdmissionRequest, pod *corev1.Pod) error {
			injectReadinessGate(pod)
			return nil
		}}
}
