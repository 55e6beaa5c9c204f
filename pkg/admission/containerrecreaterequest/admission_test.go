package containerrecreaterequest

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

func runningPod() *corev1.Pod {
	grace := int64(45)
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "pod-1", Namespace: "ns", UID: "uid-1"},
		Spec: corev1.PodSpec{
			NodeName:                      "node-1",
			TerminationGracePeriodSeconds: &grace,
			Containers: []corev1.Container{
				{Name: "app", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}},
					Lifecycle: &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/quit"}}}},
				{Name: "sidecar"},
			},
		},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{
			{Name: "app", ContainerID: "fakecri://a", RestartCount: 2}, {Name: "sidecar", ContainerID: "fakecri://b"},
		}},
	}
}

func request(containers ...string) *apps.ContainerRecreateRequest {
	crr := &apps.ContainerRecreateRequest{ObjectMeta: metav1.ObjectMeta{Name: "crr", Namespace: "ns"},
		Spec: apps.ContainerRecreateRequestSpec{PodName: "pod-1",
			Strategy: &apps.ContainerRecreateRequestStrategy{FailurePolicy: apps.ContainerRecreateRequestFailurePolicyFail}}}
	for _, c := range containers {
		crr.Spec.Containers = append(crr.Spec.Containers, apps.ContainerRecreateRequestContainer{Name: c})
	}
	return crr
}

func TestFillFromPod(t *testing.T) {
	crr := request("app", "sidecar")
	if errs := fillFromPod(crr, runningPod(), field.NewPath("spec")); len(errs) > 0 {
		t.Fatalf("unexpected errors: %v", errs)
	}
	want := map[string]string{
		"crr.apps.kruise.io/pod-name": "pod-1", "crr.apps.kruise.io/pod-uid": "uid-1",
		"crr.apps.kruise.io/node-name": "node-1", "crr.apps.kruise.io/active": "true",
	}
	for k, v := range want {
		if crr.Labels[k] != v {
			t.Errorf("label %s = %q, want %q", k, crr.Labels[k], v)
		}
	}
	if g := crr.Spec.Strategy.TerminationGracePeriodSeconds; g == nil || *g != 45 {
		t.Errorf("grace period = %v, want the pod's 45", g)
	}
	app := crr.Spec.Containers[0]
	if app.PreStop == nil || app.PreStop.HTTPGet == nil || len(app.Ports) != 1 {
		t.Errorf("app: want the pod's HTTP preStop and its ports, got %+v", app)
	}
	if sc := crr.Spec.Containers[1]; sc.PreStop != nil || sc.Ports != nil {
		t.Errorf("sidecar has no hook, got %+v", sc)
	}
	// Each container's statusContext is what the pod's status says it runs now.
	for i, want := range []apps.ContainerRecreateRequestContainerContext{
		{ContainerID: "fakecri://a", RestartCount: 2}, {ContainerID: "fakecri://b"},
	} {
		if got := crr.Spec.Containers[i].StatusContext; got == nil || *got != want {
			t.Errorf("%s: statusContext %+v, want %+v", crr.Spec.Containers[i].Name, got, want)
		}
	}
}

func TestFillFromPodRejects(t *testing.T) {
	cases := []struct {
		name      string
		pod       func(p *corev1.Pod)
		container string
		wantField string
		wantText  string
	}{
		{"unscheduled pod", func(p *corev1.Pod) { p.Spec.NodeName = "" }, "app", "spec.podName", "not scheduled"},
		{"finished pod", func(p *corev1.Pod) { p.Status.Phase = corev1.PodSucceeded }, "app", "spec.podName", "finished"},
		{"deleting pod", func(p *corev1.Pod) { p.DeletionTimestamp = &metav1.Time{} }, "app", "spec.podName", "being deleted"},
		{"unknown container", func(*corev1.Pod) {}, "db", "spec.containers[0].name", "Not found"},
		{"container not started", func(p *corev1.Pod) { p.Status.ContainerStatuses[0].ContainerID = "" }, "app", "spec.containers[0].name", "not started"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pod := runningPod()
			tc.pod(pod)
			errs := fillFromPod(request(tc.container), pod, field.NewPath("spec"))
			if len(errs) != 1 || errs[0].Field != tc.wantField || !strings.Contains(errs[0].Error(), tc.wantText) {
				t.Fatalf("want one error at %s mentioning %q, got %v", tc.wantField, tc.wantText, errs)
			}
		})
	}
}

func TestReadOnlyFields(t *testing.T) {
	crr := request("app")
	crr.Spec.Containers[0].StatusContext = &apps.ContainerRecreateRequestContainerContext{ContainerID: "x"}
	errs := readOnlyFieldsSet(crr, field.NewPath("spec"))
	if len(errs) != 1 || errs[0].Field != "spec.containers[0].statusContext" || errs[0].Type != field.ErrorTypeForbidden {
		t.Fatalf("want a forbidden statusContext, got %v", errs)
	}
}
