package containerrecreaterequest

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// OpenKruise's rules about a request's pod, in
// pkg/webhook/containerrecreaterequest/mutating/crr_mutating_handler.go, through Admit
// as kruise-apiserver runs it: the same request refused, with the field at fault.
// README "Other kinds" says which rules we do not match.
func TestUpstreamRules(t *testing.T) {
	const f = "containerrecreaterequest/mutating/crr_mutating_handler.go:"
	for _, tc := range []struct {
		rule  string
		pod   func(*corev1.Pod) // nil: no pod
		crr   func(*apps.ContainerRecreateRequest)
		field string
	}{
		{rule: f + "Handle: the pod exists", field: "spec.podName"},
		{rule: f + "Handle: the pod is active (not finished)",
			pod: func(p *corev1.Pod) { p.Status.Phase = corev1.PodFailed }, field: "spec.podName"},
		{rule: f + "Handle: the pod is active (not being deleted)",
			pod: func(p *corev1.Pod) { p.DeletionTimestamp = &metav1.Time{} }, field: "spec.podName"},
		{rule: f + "Handle: the pod is scheduled",
			pod: func(p *corev1.Pod) { p.Spec.NodeName = "" }, field: "spec.podName"},
		{rule: f + "injectPodIntoContainerRecreateRequest: preStop is read-only",
			pod: func(*corev1.Pod) {}, crr: func(c *apps.ContainerRecreateRequest) {
				c.Spec.Containers[0].PreStop = &apps.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}
			}, field: "spec.containers[0].preStop"},
		{rule: f + "injectPodIntoContainerRecreateRequest: ports are read-only",
			pod: func(*corev1.Pod) {}, crr: func(c *apps.ContainerRecreateRequest) {
				c.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 80}}
			}, field: "spec.containers[0].ports"},
		{rule: f + "injectPodIntoContainerRecreateRequest: statusContext is read-only",
			pod: func(*corev1.Pod) {}, crr: func(c *apps.ContainerRecreateRequest) {
				c.Spec.Containers[0].StatusContext = &apps.ContainerRecreateRequestContainerContext{ContainerID: "x"}
			}, field: "spec.containers[0].statusContext"},
		{rule: f + "injectPodIntoContainerRecreateRequest: the container is in the pod",
			pod: func(*corev1.Pod) {}, crr: func(c *apps.ContainerRecreateRequest) { c.Spec.Containers[0].Name = "db" },
			field: "spec.containers[0].name"},
		{rule: f + "injectPodIntoContainerRecreateRequest: the container has a status",
			pod: func(p *corev1.Pod) { p.Status.ContainerStatuses = p.Status.ContainerStatuses[1:] }, field: "spec.containers[0].name"},
		{rule: f + "injectPodIntoContainerRecreateRequest: the container has a containerID",
			pod: func(p *corev1.Pod) { p.Status.ContainerStatuses[0].ContainerID = "" }, field: "spec.containers[0].name"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			p := New()
			kube := fake.NewClientset() // no pod: NotFound
			if tc.pod != nil {
				pod := runningPod()
				tc.pod(pod)
				kube = fake.NewClientset(pod)
			}
			p.SetExternalKubeClientSet(kube)
			crr := request("app")
			if tc.crr != nil {
				tc.crr(crr)
			}
			a := admission.NewAttributesRecord(crr, nil, apps.Kind("ContainerRecreateRequest").WithVersion("v1beta1"), "ns", crr.Name,
				apps.Resource("containerrecreaterequests").WithVersion("v1beta1"), "", admission.Create, nil, false, nil)
			err := p.Admit(context.Background(), a, nil)
			if !apierrors.IsInvalid(err) {
				t.Fatalf("want 422 Invalid, got %v", err)
			}
			causes := err.(apierrors.APIStatus).Status().Details.Causes
			if len(causes) != 1 || causes[0].Field != tc.field {
				t.Fatalf("want one cause at %s, got %v", tc.field, causes)
			}
		})
	}
}
