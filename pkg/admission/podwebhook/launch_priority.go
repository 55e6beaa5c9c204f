package podwebhook

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// injectLaunchPriority holds containers back until those of higher priority are ready:
// every container gets the barrier env, read from the key of its priority in the pod's
// barrier ConfigMap, which the launch-priority controller fills in priority order.
// Priorities come from the Ordered annotation (list order) or from each container's
// KRUISE_CONTAINER_PRIORITY (0 without); a pod whose containers all share one priority
// is left alone. A pod named only by generateName is given its name here: the
// ConfigMap is named after it.
func injectLaunchPriority(pod *corev1.Pod) (bool, field.ErrorList) {
	if len(pod.Spec.Containers) < 2 {
		return false, nil
	}
	for _, c := range pod.Spec.Containers {
		if hasEnv(c.Env, pub.ContainerLaunchBarrierEnv) {
			return false, nil // already done (a reinvocation)
		}
	}
	priorities, errs := launchPriorities(pod)
	if len(errs) > 0 || priorities == nil {
		return false, errs
	}
	if pod.Name == "" {
		if pod.GenerateName == "" {
			return false, nil // kube rejects the pod for its missing name
		}
		pod.Name = names.SimpleNameGenerator.GenerateName(pod.GenerateName)
	}
	configMap := pub.ContainerLaunchBarrierConfigMap(pod.Name)
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		c.Env = append(c.Env, corev1.EnvVar{Name: pub.ContainerLaunchBarrierEnv, ValueFrom: &corev1.EnvVarSource{
			ConfigMapKeyRef: &corev1.ConfigMapKeySelector{
				LocalObjectReference: corev1.LocalObjectReference{Name: configMap},
				Key:                  pub.ContainerLaunchBarrierKey(priorities[i]),
			},
		}})
	}
	return true, nil
}

// launchPriorities returns each container's priority, or nil when the pod asks for no
// ordering (or all its priorities are equal).
func launchPriorities(pod *corev1.Pod) ([]int32, field.ErrorList) {
	out := make([]int32, len(pod.Spec.Containers))
	if pod.Annotations[pub.ContainerLaunchPriorityKey] == pub.ContainerLaunchOrdered {
		for i := range out {
			out[i] = int32(-i)
		}
		return out, nil
	}
	var errs field.ErrorList
	for i, c := range pod.Spec.Containers {
		for j, e := range c.Env {
			if e.Name != pub.ContainerPriorityEnv {
				continue
			}
			p, err := strconv.ParseInt(e.Value, 10, 64)
			if err != nil || p < pub.MinContainerPriority || p > pub.MaxContainerPriority {
				errs = append(errs, field.Invalid(field.NewPath("spec", "containers").Index(i).Child("env").Index(j).Child("value"),
					e.Value, fmt.Sprintf("%s must be an integer from %d to %d", pub.ContainerPriorityEnv,
						pub.MinContainerPriority, pub.MaxContainerPriority)))
				continue
			}
			out[i] = int32(p)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	for _, p := range out {
		if p != out[0] {
			return out, nil
		}
	}
	return nil, nil
}

// launchPriority is the handler of injectLaunchPriority; a priority that is not a
// number in range refuses the pod (422, naming the env value).
func launchPriority() Handler {
	return Handler{Name: "container-launch-priority", Rules: podCreates, Applies: asksLaunchPriority,
		CallClauses: staticCallClause("launch-priority", launchPriorityClause),
		Mutate: func(_ context.Context, _ *admissionv1.AdmissionRequest, pod *corev1.Pod) error {
			if _, errs := injectLaunchPriority(pod); len(errs) > 0 {
				return Deny(apierrors.NewInvalid(corev1.SchemeGroupVersion.WithKind("Pod").GroupKind(), pod.Name, errs))
			}
			return nil
		}}
}

// asksLaunchPriority: the pod names the priority annotation or a priority env var
// somewhere in its JSON. Without either, injectLaunchPriority leaves it alone. The
// names are searched without their "/": a JSON encoder may write it as "\/".
func asksLaunchPriority(req *admissionv1.AdmissionRequest) (bool, error) {
	raw := req.Object.Raw
	return bytes.Contains(raw, launchPriorityAnnotationName) || bytes.Contains(raw, []byte(pub.ContainerPriorityEnv)), nil
}

// launchPriorityAnnotationName is pub.ContainerLaunchPriorityKey's name part.
var launchPriorityAnnotationName = []byte(pub.ContainerLaunchPriorityKey[strings.LastIndexByte(pub.ContainerLaunchPriorityKey, '/')+1:])
