package v1alpha1

import corev1 "k8s.io/api/core/v1"

// KruiseTerminateSidecarEnv marks a container (usually a SidecarSet sidecar) as a
// sidecar that OpenKruise's SidecarTerminator stops once the pod's main containers of
// a restartPolicy Never/OnFailure pod have finished: env
// KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT=true (the value compared case-insensitively).
const KruiseTerminateSidecarEnv = "KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT"

// SidecarTerminatedCondition is the pod condition SidecarTerminator sets (True) when it
// ends a pod whose main containers have finished, OpenKruise's SidecarTerminated.
const SidecarTerminatedCondition corev1.PodConditionType = "SidecarTerminated"
