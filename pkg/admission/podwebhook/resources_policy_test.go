package podwebhook

import (
	"net/http"
	"strings"
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

// A pod that already has the SidecarSet's container is not refused over that
// container's resourcesPolicy: the sidecar is skipped by name before it is sized, so
// a policy that finds no target container in this pod never runs. The pod's own
// envoy is kept as it is and none is added.
func TestInjectResourcesPolicySkipsTakenContainer(t *testing.T) {
	ss := storedSidecarSet(t, []byte(`{"apiVersion":"apps.kruise.io/v1alpha1","kind":"SidecarSet",
		"metadata":{"name":"proxy"},"spec":{"selector":{"matchLabels":{"app":"web"}},
		"containers":[{"name":"envoy","image":"envoy:v1","resourcesPolicy":{
			"targetContainersMode":"sum","targetContainersNameRegex":"^engine-",
			"resourcesExpr":{"limits":{"cpu":"max(cpu*50%, 50m)"}}}},
			{"name":"hot","image":"hot:v1","upgradeStrategy":{"upgradeType":"HotUpgrade","hotUpgradeEmptyImage":"hot:empty"},
			"resourcesPolicy":{"targetContainersMode":"sum","targetContainersNameRegex":"^engine-",
			"resourcesExpr":{"requests":{"cpu":"cpu"}}}}]}}`))
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-0", Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{
			{Name: "other", Image: "app:v1"},
			{Name: "envoy", Image: "envoy:mine"},
			{Name: "hot-1", Image: "hot:mine"},
		}},
	}
	resp, got := admit(t, newWebhook(false, nil, ss), "default", pod)
	if !resp.Allowed {
		t.Fatalf("pod that already has envoy and hot-1 refused: %+v", resp.Result)
	}
	if names := containerNames(got.Spec.Containers); strings.Join(names, ",") != "other,envoy,hot-1" {
		t.Errorf("containers = %v, want the pod's own other,envoy,hot-1 and nothing injected", names)
	}
	if envoy := findContainer(got.Spec.Containers, "envoy"); envoy == nil || envoy.Image != "envoy:mine" || len(envoy.Resources.Limits) != 0 {
		t.Errorf("the pod's envoy was changed: %+v", envoy)
	}
}
