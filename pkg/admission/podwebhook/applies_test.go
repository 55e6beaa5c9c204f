package podwebhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// A pod no mutating handler applies to is let through without being decoded; once
// one applies, every handler runs as usual.
func TestMutateDecodesOnlyWhenAHandlerApplies(t *testing.T) {
	type check = func(*admissionv1.AdmissionRequest) (bool, error)
	says := func(applies bool, err error) check {
		return func(*admissionv1.AdmissionRequest) (bool, error) { return applies, err }
	}
	broken := errors.New("cache gone")
	for _, tc := range []struct {
		name      string
		applies   []check // one handler each; nil: no check
		raw       string
		wantCalls []string
		wantErr   error
	}{
		{name: "none applies: the pod is not even decoded", applies: []check{says(false, nil), says(false, nil)},
			raw: "{not a pod"},
		{name: "one applies: all run, in order", applies: []check{says(false, nil), says(true, nil)},
			raw: `{"metadata":{"name":"p"}}`, wantCalls: []string{"h0", "h1"}},
		{name: "a handler without a check always applies", applies: []check{says(false, nil), nil},
			raw: `{"metadata":{"name":"p"}}`, wantCalls: []string{"h0", "h1"}},
		{name: "a check that fails is the webhook's error", applies: []check{says(false, broken)},
			raw: `{"metadata":{"name":"p"}}`, wantErr: broken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c calls
			var handlers []Handler
			for i, applies := range tc.applies {
				h := c.mutating(fmt.Sprintf("h%d", i), nil, rule(Pods, opCreate))
				h.Applies = applies
				handlers = append(handlers, h)
			}
			resp, err := mustServer(t, handlers...).Mutate(context.Background(), &admissionv1.AdmissionRequest{
				Operation: admissionv1.Create, Namespace: "default", Resource: metav1.GroupVersionResource(podsGVR),
				Object: runtime.RawExtension{Raw: []byte(tc.raw)}})
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("error = %v, want %v", err, tc.wantErr)
			}
			if err == nil && (!resp.Allowed || resp.Patch != nil) {
				t.Errorf("response = %+v, want allowed without a patch", resp)
			}
			if !cmp.Equal([]string(c), tc.wantCalls) {
				t.Errorf("handlers run = %v, want %v", c, tc.wantCalls)
			}
		})
	}
}

// kruise-apiserver's own chain, with no SidecarSet and no spread: a pod asking for no
// launch priority is answered without decoding it.
func TestHandlersLeaveAPlainPodUndecoded(t *testing.T) {
	w := newWebhook(false, nil)
	resp, err := w.Mutate(context.Background(), &admissionv1.AdmissionRequest{Operation: admissionv1.Create, Namespace: "default",
		Resource: metav1.GroupVersionResource(podsGVR), Object: runtime.RawExtension{Raw: []byte(`{"spec": not json`)}})
	if err != nil || !resp.Allowed || resp.Patch != nil {
		t.Fatalf("Mutate = %+v, %v; want allowed, no patch, nothing decoded", resp, err)
	}
}

func TestAsksLaunchPriority(t *testing.T) {
	pod := func(edit func(*corev1.Pod)) []byte {
		p := plainPod("p")
		if edit != nil {
			edit(p)
		}
		raw, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	for _, tc := range []struct {
		name string
		raw  []byte
		want bool
	}{
		{name: "plain pod", raw: pod(nil)},
		{name: "ordered annotation", raw: pod(func(p *corev1.Pod) {
			p.Annotations = map[string]string{pub.ContainerLaunchPriorityKey: pub.ContainerLaunchOrdered}
		}), want: true},
		{name: "priority env", raw: pod(func(p *corev1.Pod) {
			p.Spec.Containers[0].Env = []corev1.EnvVar{{Name: pub.ContainerPriorityEnv, Value: "1"}}
		}), want: true},
		{name: "annotation key with an escaped slash", raw: []byte(`{"metadata":{"annotations":{"apps.kruise.io\/container-launch-priority":"Ordered"}}}`), want: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := asksLaunchPriority(&admissionv1.AdmissionRequest{Object: runtime.RawExtension{Raw: tc.raw}})
			if err != nil || got != tc.want {
				t.Errorf("asksLaunchPriority = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}
