package podwebhook

import (
	"net/http"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A SidecarSet with a resourcesPolicy sizes its sidecar from the pod's own
// containers; a pod the policy finds no container in is refused with 422.
func TestInjectResourcesPolicy(t *testing.T) {
	ss := storedSidecarSet(t, []byte(`{"apiVersion":"apps.kruise.io/v1alpha1","kind":"SidecarSet",
		"metadata":{"name":"proxy"},"spec":{"selector":{"matchLabels":{"app":"web"}},
		"containers":[{"name":"envoy","image":"envoy:v1","resourcesPolicy":{
			"targetContainersMode":"sum","targetContainersNameRegex":"^engine-",
			"resourcesExpr":{"limits":{"cpu":"max(cpu*50%, 50m)","memory":"200Mi"},
			"requests":{"cpu":"max(cpu*50%, 50m)","memory":"100Mi"}}}}]}}`))
	pod := func(names ...string) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Labels: map[string]string{"app": "web"}}}
		for _, n := range names {
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: n, Image: "engine",
				Resources: corev1.ResourceRequirements{
					Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m"), corev1.ResourceMemory: resource.MustParse("200Mi")},
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("50m"), corev1.ResourceMemory: resource.MustParse("100Mi")},
				}})
		}
		return p
	}

	_, got := admit(t, newWebhook(false, nil, ss), "default", pod("engine-a", "engine-b", "other"))
	envoy := findContainer(got.Spec.Containers, "envoy")
	if envoy == nil {
		t.Fatalf("envoy not injected: %v", containerNames(got.Spec.Containers))
	}
	want := map[string]string{"limits.cpu": "200m", "limits.memory": "200Mi", "requests.cpu": "50m", "requests.memory": "100Mi"}
	gotRes := map[string]resource.Quantity{
		"limits.cpu": envoy.Resources.Limits[corev1.ResourceCPU], "limits.memory": envoy.Resources.Limits[corev1.ResourceMemory],
		"requests.cpu": envoy.Resources.Requests[corev1.ResourceCPU], "requests.memory": envoy.Resources.Requests[corev1.ResourceMemory],
	}
	for k, w := range want {
		if g := gotRes[k]; g.Cmp(resource.MustParse(w)) != 0 {
			t.Errorf("envoy %s = %s, want %s", k, g.String(), w)
		}
	}

	resp, _ := admit(t, newWebhook(false, nil, ss), "default", pod("other"))
	if resp.Allowed || resp.Result == nil || resp.Result.Code != http.StatusUnprocessableEntity {
		t.Fatalf("pod without a target container: allowed=%v result=%+v, want a 422 refusal", resp.Allowed, resp.Result)
	}
}
