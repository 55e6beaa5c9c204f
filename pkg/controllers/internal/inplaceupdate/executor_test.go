package inplaceupdate

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
)

// fakePods applies strategic merge patches to one pod and counts writes per endpoint.
// The status endpoint keeps metadata and status from the patch and ignores spec; the
// pod endpoint ignores status (as the apiserver does).
type fakePods struct {
	pod    *corev1.Pod
	writes map[string]int // "pod", "status", "resize"
	// order lists the endpoints written, in order; refuse answers an endpoint's
	// writes with an error instead.
	order  []string
	refuse map[string]error
}

func (f *fakePods) Patch(_ context.Context, namespace, name string, pt types.PatchType, data []byte, sub ...string) (*corev1.Pod, error) {
	if pt != types.StrategicMergePatchType || namespace != f.pod.Namespace || name != f.pod.Name {
		return nil, fmt.Errorf("unexpected patch %s %s/%s", pt, namespace, name)
	}
	var meta struct {
		Metadata struct {
			UID types.UID `json:"uid"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(data, &meta); err != nil || meta.Metadata.UID != f.pod.UID {
		return nil, fmt.Errorf("patch without the uid precondition: %s", data)
	}
	old, _ := json.Marshal(f.pod)
	merged, err := strategicpatch.StrategicMergePatch(old, data, &corev1.Pod{})
	if err != nil {
		return nil, err
	}
	got := &corev1.Pod{}
	if err := json.Unmarshal(merged, got); err != nil {
		return nil, err
	}
	endpoint := "pod"
	if len(sub) == 1 {
		endpoint = sub[0]
	}
	if err := f.refuse[endpoint]; err != nil {
		return nil, err
	}
	switch endpoint {
	case "status":
		got.Spec = f.pod.Spec
	case "resize":
		// only container resources change; the pod endpoint refuses them
		resized := f.pod.DeepCopy()
		for i := range resized.Spec.Containers {
			resized.Spec.Containers[i].Resources = got.Spec.Containers[i].Resources
		}
		got = resized
	default:
		for i := range got.Spec.Containers {
			if !apiequality.Semantic.DeepEqual(got.Spec.Containers[i].Resources, f.pod.Spec.Containers[i].Resources) {
				return nil, fmt.Errorf("pod updates may not change container resources: %s", data)
			}
		}
		got.Status = f.pod.Status
	}
	f.order = append(f.order, endpoint)
	f.writes[endpoint]++
	f.pod = got
	return got.DeepCopy(), nil
}

func (f *fakePods) total() int { return f.writes["pod"] + f.writes["status"] }

// TestExecutorNoGrace: a two-batch image update without a grace period costs one pod
// patch per batch and nothing else (no InPlaceUpdateReady False/True round trip).
func TestExecutorNoGrace(t *testing.T) {
	oldTmpl, newTmpl := sidecarAndMain()
	pod := runningPod(oldTmpl)
	InjectReadinessGate(pod)
	pod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: t0}}
	pod.Status.Conditions = append(pod.Status.Conditions, InitialConditions(pod, t0)...)
	f := &fakePods{pod: pod, writes: map[string]int{}}
	now := t0
	e := &Executor{Pods: f, Now: func() metav1.Time { return now }}
	ctx := context.Background()

	res, err := e.Update(ctx, f.pod, CalculateSpec(oldTmpl, newTmpl, "rev-2"), &pub.InPlaceUpdateStrategy{})
	if err != nil || res.Pod == nil || res.RequeueAfter != 0 {
		t.Fatalf("Update = %+v, %v", res, err)
	}
	if f.writes["pod"] != 1 || f.writes["status"] != 0 {
		t.Fatalf("writes after Update = %v, want one pod patch", f.writes)
	}
	if f.pod.Spec.Containers[1].Image != "proxy:2" || f.pod.Labels[pub.ControllerRevisionHashLabelKey] != "rev-2" || f.pod.Labels["team"] != "blue" {
		t.Fatalf("pod after Update: images %v labels %v", f.pod.Spec.Containers, f.pod.Labels)
	}

	// Nothing to do until the runtime switched the sidecar.
	if res, err := e.Refresh(ctx, f.pod); err != nil || res.Pod != nil || res.Completed {
		t.Fatalf("Refresh before the switch = %+v, %v", res, err)
	}
	runtimeSwitch(f.pod, true)
	now = t1
	if res, err := e.Refresh(ctx, f.pod); err != nil || res.Pod == nil {
		t.Fatalf("Refresh for the next batch = %+v, %v", res, err)
	}
	if f.writes["pod"] != 2 || f.pod.Spec.Containers[0].Image != "app:2" {
		t.Fatalf("after the second batch: writes %v, main image %s", f.writes, f.pod.Spec.Containers[0].Image)
	}
	runtimeSwitch(f.pod, true)
	res, err = e.Refresh(ctx, f.pod)
	if err != nil || !res.Completed || res.Pod != nil {
		t.Fatalf("Refresh at the end = %+v, %v; want completed without a write", res, err)
	}
	if f.total() != 2 {
		t.Errorf("writes = %v, want 2 (one per batch)", f.writes)
	}
}

// TestExecutorGrace: with a grace period, one status write (False + grace annotation),
// one pod patch after the grace, one status write (True) at the end.
func TestExecutorGrace(t *testing.T) {
	tmpl := template(nil, nil, container("main", "app:1"))
	pod := runningPod(tmpl)
	InjectReadinessGate(pod)
	pod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: t0}}
	pod.Status.Conditions = append(pod.Status.Conditions, InitialConditions(pod, t0)...)
	f := &fakePods{pod: pod, writes: map[string]int{}}
	now := t0
	e := &Executor{Pods: f, Now: func() metav1.Time { return now }}
	ctx := context.Background()
	spec := &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{"main": "app:2"}}

	res, err := e.Update(ctx, f.pod, spec, &pub.InPlaceUpdateStrategy{GracePeriodSeconds: 20})
	if err != nil || res.RequeueAfter != 20*time.Second {
		t.Fatalf("Update = %+v, %v", res, err)
	}
	if f.writes["status"] != 1 || f.writes["pod"] != 0 {
		t.Fatalf("writes = %v, want one status write", f.writes)
	}
	if c := podcondition.Find(f.pod.Status.Conditions, inPlaceUpdateReady); c == nil || c.Status != corev1.ConditionFalse {
		t.Fatalf("InPlaceUpdateReady = %+v", c)
	}
	if c := podcondition.Find(f.pod.Status.Conditions, corev1.PodReady); c == nil || c.Status != corev1.ConditionFalse {
		t.Fatalf("Ready = %+v", c)
	}
	if _, ok := f.pod.Annotations[pub.InPlaceUpdateGraceKey]; !ok || f.pod.Labels[pub.ControllerRevisionHashLabelKey] != "rev-2" {
		t.Fatalf("grace annotation or revision label missing: %v %v", f.pod.Annotations, f.pod.Labels)
	}
	if f.pod.Spec.Containers[0].Image != "app:1" {
		t.Fatal("image patched before the grace")
	}

	now = metav1.NewTime(t0.Add(5 * time.Second))
	if res, err := e.Refresh(ctx, f.pod); err != nil || res.RequeueAfter != 15*time.Second || res.Pod != nil {
		t.Fatalf("Refresh during the grace = %+v, %v", res, err)
	}
	now = metav1.NewTime(t0.Add(20 * time.Second))
	if res, err := e.Refresh(ctx, f.pod); err != nil || res.Pod == nil {
		t.Fatalf("Refresh after the grace = %+v, %v", res, err)
	}
	if f.writes["pod"] != 1 || f.pod.Spec.Containers[0].Image != "app:2" {
		t.Fatalf("after the grace: writes %v image %s", f.writes, f.pod.Spec.Containers[0].Image)
	}
	if _, ok := f.pod.Annotations[pub.InPlaceUpdateGraceKey]; ok {
		t.Fatal("grace annotation kept")
	}

	runtimeSwitch(f.pod, true)
	res, err = e.Refresh(ctx, f.pod)
	if err != nil || !res.Completed || res.Pod == nil {
		t.Fatalf("Refresh at the end = %+v, %v", res, err)
	}
	if c := podcondition.Find(f.pod.Status.Conditions, inPlaceUpdateReady); c == nil || c.Status != corev1.ConditionTrue {
		t.Fatalf("InPlaceUpdateReady at the end = %+v", c)
	}
	if f.writes["status"] != 2 || f.total() != 3 {
		t.Errorf("writes = %v, want 2 status + 1 pod", f.writes)
	}
	// Done: further refreshes write nothing.
	if res, err := e.Refresh(ctx, f.pod); err != nil || res.Pod != nil || !res.Completed {
		t.Errorf("Refresh after the end = %+v, %v", res, err)
	}
}
