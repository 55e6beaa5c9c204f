package uniteddeployment

import (
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// kube-controller-manager's HorizontalPodAutoscaler drives a UnitedDeployment through
// its scale subresource: with fewer replicas than minReplicas it scales it up (it does
// so before reading any metric), and the new total is divided between the subsets.
func TestHPAScalesThroughTheScaleSubresource(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	apply(t, c, ns, udManifest("hpa", workloadTemplate("cloneSetTemplate", "hpa", "")))
	waitPods(t, c, ns, "app=hpa", map[string]int{"subset-a": 1, "subset-b": 3}, 2*time.Minute)
	apply(t, c, ns, `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: hpa
spec:
  scaleTargetRef:
    apiVersion: apps.kruise.io/v1alpha1
    kind: UnitedDeployment
    name: hpa
  minReplicas: 6
  maxReplicas: 6
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 50
`)
	waitUD(t, c, ns, "hpa", 2*time.Minute, func(ud *v1beta1.UnitedDeployment) bool {
		return *ud.Spec.Replicas == 6 && ud.Status.SubsetReplicas["subset-b"] == 5
	})
	waitPods(t, c, ns, "app=hpa", map[string]int{"subset-a": 1, "subset-b": 5}, 2*time.Minute)
}
