package ephemeraljob

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func kruise(t *testing.T) kruiseclient.Interface {
	return kruiseclient.NewForConfigOrDie(framework.Get(t).Config)
}

// controllerWrites returns kruise-controller's writes so far of resource (e.g.
// "pods/ephemeralcontainers") with verb (e.g. "PATCH").
func controllerWrites(t *testing.T, resource, verb string) float64 {
	t.Helper()
	return framework.Get(t).MetricSum(t, "kruise-controller", "kruise_controller_api_writes_total", `resource="`+resource+`"`, `verb="`+verb+`"`)
}

// injected returns the pod's ephemeral container called name if the job added it
// (KRUISE_EJOB_ID is the job's UID).
func injected(pod *corev1.Pod, job *v1alpha1.EphemeralJob, name string) *corev1.EphemeralContainer {
	for i := range pod.Spec.EphemeralContainers {
		ec := &pod.Spec.EphemeralContainers[i]
		if ec.Name != name {
			continue
		}
		for _, e := range ec.Env {
			if e.Name == v1alpha1.EphemeralContainerEnvKey && e.Value == string(job.UID) {
				return ec
			}
		}
	}
	return nil
}

func ephemeralStatus(pod *corev1.Pod, name string) *corev1.ContainerStatus {
	for i := range pod.Status.EphemeralContainerStatuses {
		if pod.Status.EphemeralContainerStatuses[i].Name == name {
			return &pod.Status.EphemeralContainerStatuses[i]
		}
	}
	return nil
}

func condition(job *v1alpha1.EphemeralJob, t v1alpha1.EphemeralJobConditionType) *v1alpha1.EphemeralJobCondition {
	for i := range job.Status.Conditions {
		if job.Status.Conditions[i].Type == t {
			return &job.Status.Conditions[i]
		}
	}
	return nil
}
