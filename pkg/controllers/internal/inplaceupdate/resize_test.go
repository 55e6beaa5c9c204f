package inplaceupdate

import (
	"context"
	"errors"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// res builds requirements from "cpu=100m,memory=64Mi"-like lists (requests, limits).
func res(requests, limits map[corev1.ResourceName]string) corev1.ResourceRequirements {
	r := corev1.ResourceRequirements{}
	for n, q := range requests {
		if r.Requests == nil {
			r.Requests = corev1.ResourceList{}
		}
		r.Requests[n] = resource.MustParse(q)
	}
	for n, q := range limits {
		if r.Limits == nil {
			r.Limits = corev1.ResourceList{}
		}
		r.Limits[n] = resource.MustParse(q)
	}
	return r
}

const (
	cpu = corev1.ResourceCPU
	mem = corev1.ResourceMemory
	eph = corev1.ResourceEphemeralStorage
)

type rl = map[corev1.ResourceName]string

// burstable: main requests 100m/64Mi, limits 200m/128Mi; sidecar nothing.
func resizeTemplates() (*corev1.PodTemplateSpec, *corev1.PodTemplateSpec) {
	main := container("main", "app:1")
	main.Resources = res(rl{cpu: "100m", mem: "64Mi"}, rl{cpu: "200m", mem: "128Mi"})
	oldTmpl := template(map[string]string{"app": "demo"}, nil, main, container("sidecar", "proxy:1"))
	return oldTmpl, oldTmpl.DeepCopy()
}

// The rule: which template changes are in place with vertical scaling on (and off).
func TestCalculateSpecVerticalScaling(t *testing.T) {
	newMain := res(rl{cpu: "200m", mem: "96Mi"}, rl{cpu: "400m", mem: "256Mi"})
	tests := []struct {
		name   string
		change func(oldTmpl, tmpl *corev1.PodTemplateSpec)
		off    bool        // gate off
		want   *UpdateSpec // nil: recreate
	}{{
		name:   "cpu and memory of one container: resize",
		change: func(_, tmpl *corev1.PodTemplateSpec) { tmpl.Spec.Containers[0].Resources = newMain },
		want: &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{}, ContainerRefMetadata: map[string]metav1.ObjectMeta{},
			ContainerResources: map[string]corev1.ResourceRequirements{"main": newMain}},
	}, {
		name:   "gate off: the same change recreates",
		off:    true,
		change: func(_, tmpl *corev1.PodTemplateSpec) { tmpl.Spec.Containers[0].Resources = newMain },
	}, {
		name: "image and resources: image in place, resources by resize",
		change: func(_, tmpl *corev1.PodTemplateSpec) {
			tmpl.Spec.Containers[0].Resources = newMain
			tmpl.Spec.Containers[1].Image = "proxy:2"
		},
		want: &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{"sidecar": "proxy:2"}, ContainerRefMetadata: map[string]metav1.ObjectMeta{},
			ContainerResources: map[string]corev1.ResourceRequirements{"main": newMain}},
	}, {
		name: "a request added to a container without resources (pod stays Burstable)",
		change: func(_, tmpl *corev1.PodTemplateSpec) {
			tmpl.Spec.Containers[1].Resources = res(rl{cpu: "50m"}, nil)
		},
		want: &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{}, ContainerRefMetadata: map[string]metav1.ObjectMeta{},
			ContainerResources: map[string]corev1.ResourceRequirements{"sidecar": res(rl{cpu: "50m"}, nil)}},
	}, {
		name: "ephemeral-storage changed: not resizable",
		change: func(_, tmpl *corev1.PodTemplateSpec) {
			tmpl.Spec.Containers[0].Resources.Requests[eph] = resource.MustParse("1Gi")
		},
	}, {
		name: "a limit removed: the resize subresource refuses removals",
		change: func(_, tmpl *corev1.PodTemplateSpec) {
			delete(tmpl.Spec.Containers[0].Resources.Limits, mem)
		},
	}, {
		name: "QoS Burstable to Guaranteed: refused by kube",
		change: func(oldTmpl, tmpl *corev1.PodTemplateSpec) {
			oldTmpl.Spec.Containers = oldTmpl.Spec.Containers[:1]
			tmpl.Spec.Containers = tmpl.Spec.Containers[:1]
			tmpl.Spec.Containers[0].Resources = res(rl{cpu: "200m", mem: "128Mi"}, rl{cpu: "200m", mem: "128Mi"})
		},
	}, {
		name: "QoS Guaranteed stays Guaranteed: resize",
		change: func(oldTmpl, tmpl *corev1.PodTemplateSpec) {
			g := res(rl{cpu: "1", mem: "1Gi"}, rl{cpu: "1", mem: "1Gi"})
			oldTmpl.Spec.Containers = []corev1.Container{oldTmpl.Spec.Containers[0]}
			oldTmpl.Spec.Containers[0].Resources = g
			tmpl.Spec.Containers = []corev1.Container{tmpl.Spec.Containers[0]}
			tmpl.Spec.Containers[0].Resources = res(rl{cpu: "2", mem: "2Gi"}, rl{cpu: "2", mem: "2Gi"})
		},
		want: &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{}, ContainerRefMetadata: map[string]metav1.ObjectMeta{},
			ContainerResources: map[string]corev1.ResourceRequirements{"main": res(rl{cpu: "2", mem: "2Gi"}, rl{cpu: "2", mem: "2Gi"})}},
	}, {
		name: "QoS BestEffort to Burstable: refused",
		change: func(oldTmpl, tmpl *corev1.PodTemplateSpec) {
			oldTmpl.Spec.Containers = oldTmpl.Spec.Containers[1:]
			tmpl.Spec.Containers = tmpl.Spec.Containers[1:]
			tmpl.Spec.Containers[0].Resources = res(rl{cpu: "50m"}, nil)
		},
	}, {
		name: "init container resources: not resized",
		change: func(oldTmpl, tmpl *corev1.PodTemplateSpec) {
			init := container("init", "init:1")
			init.Resources = res(rl{cpu: "100m"}, nil)
			oldTmpl.Spec.InitContainers = []corev1.Container{init}
			init.Resources = res(rl{cpu: "200m"}, nil)
			tmpl.Spec.InitContainers = []corev1.Container{*init.DeepCopy()}
		},
	}, {
		name: "pod-level resources: not resized",
		change: func(oldTmpl, tmpl *corev1.PodTemplateSpec) {
			pl := res(rl{cpu: "1"}, nil)
			oldTmpl.Spec.Resources, tmpl.Spec.Resources = &pl, pl.DeepCopy()
			tmpl.Spec.Containers[0].Resources = newMain
		},
	}, {
		name: "resources and resizePolicy: the policy is no resize",
		change: func(_, tmpl *corev1.PodTemplateSpec) {
			tmpl.Spec.Containers[0].Resources = newMain
			tmpl.Spec.Containers[0].ResizePolicy = []corev1.ContainerResizePolicy{{ResourceName: mem, RestartPolicy: corev1.RestartContainer}}
		},
	}, {
		name: "resources and another spec field: recreate",
		change: func(_, tmpl *corev1.PodTemplateSpec) {
			tmpl.Spec.Containers[0].Resources = newMain
			tmpl.Spec.Containers[0].Args = []string{"-v"}
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldTmpl, newTmpl := resizeTemplates()
			tt.change(oldTmpl, newTmpl)
			got := CalculateSpecWith(oldTmpl, newTmpl, "rev-2", Options{VerticalScaling: !tt.off})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("CalculateSpecWith (-want +got):\n%s", diff)
			}
			if got != nil && got.VerticalOnly() != (len(got.ContainerImages) == 0) {
				t.Errorf("VerticalOnly = %v for %+v", got.VerticalOnly(), got)
			}
		})
	}
}

func TestQOSClass(t *testing.T) {
	for _, tc := range []struct {
		name string
		cs   []corev1.ResourceRequirements
		want corev1.PodQOSClass
	}{
		{"nothing", []corev1.ResourceRequirements{{}}, corev1.PodQOSBestEffort},
		{"ephemeral storage only", []corev1.ResourceRequirements{res(rl{eph: "1Gi"}, nil)}, corev1.PodQOSBestEffort},
		{"limits only: requests default to them", []corev1.ResourceRequirements{res(nil, rl{cpu: "1", mem: "1Gi"})}, corev1.PodQOSGuaranteed},
		{"equal requests and limits", []corev1.ResourceRequirements{res(rl{cpu: "1", mem: "1Gi"}, rl{cpu: "1000m", mem: "1Gi"})}, corev1.PodQOSGuaranteed},
		{"no memory limit", []corev1.ResourceRequirements{res(rl{cpu: "1"}, rl{cpu: "1"})}, corev1.PodQOSBurstable},
		{"one container without resources", []corev1.ResourceRequirements{res(nil, rl{cpu: "1", mem: "1Gi"}), {}}, corev1.PodQOSBurstable},
		{"request below limit", []corev1.ResourceRequirements{res(rl{cpu: "500m", mem: "1Gi"}, rl{cpu: "1", mem: "1Gi"})}, corev1.PodQOSBurstable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := &corev1.PodSpec{}
			for _, r := range tc.cs {
				spec.Containers = append(spec.Containers, corev1.Container{Name: "c", Resources: r})
			}
			if got := qosClass(spec); got != tc.want {
				t.Errorf("qosClass = %s, want %s", got, tc.want)
			}
		})
	}
}

// resizablePod is a running pod of tmpl whose node reports container resources.
func resizablePod(tmpl *corev1.PodTemplateSpec) *corev1.Pod {
	pod := runningPod(tmpl)
	for i := range pod.Status.ContainerStatuses {
		cs := &pod.Status.ContainerStatuses[i]
		cs.State.Running = &corev1.ContainerStateRunning{}
		cs.Resources = pod.Spec.Containers[i].Resources.DeepCopy()
	}
	return pod
}

// The per-pod rule: what the node and the pod itself allow.
func TestCanResize(t *testing.T) {
	oldTmpl, newTmpl := resizeTemplates()
	newTmpl.Spec.Containers[0].Resources = res(rl{cpu: "200m", mem: "96Mi"}, rl{cpu: "400m", mem: "256Mi"})
	spec := CalculateSpecWith(oldTmpl, newTmpl, "rev-2", Options{VerticalScaling: true})
	for _, tc := range []struct {
		name   string
		change func(*corev1.Pod)
		want   bool
	}{
		{"node reports resources", func(*corev1.Pod) {}, true},
		{"node reports no resources for a running container (kube refuses the resize)",
			func(p *corev1.Pod) { p.Status.ContainerStatuses[1].Resources = nil }, false},
		{"a container not running yet: kube cannot tell, lets it through", func(p *corev1.Pod) {
			for i := range p.Status.ContainerStatuses {
				p.Status.ContainerStatuses[i].Resources = nil
				p.Status.ContainerStatuses[i].State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{}}
			}
		}, true},
		{"an injected container makes the pod's QoS change", func(p *corev1.Pod) {
			// the pod is Guaranteed with the old resources once the sidecar has limits
			p.Spec.Containers[0].Resources = res(nil, rl{cpu: "200m", mem: "128Mi"})
			p.Spec.Containers[1].Resources = res(nil, rl{cpu: "1", mem: "1Gi"})
		}, false},
		{"pod-level resources", func(p *corev1.Pod) { p.Spec.Resources = &corev1.ResourceRequirements{} }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := resizablePod(oldTmpl)
			tc.change(pod)
			if got := CanResize(pod, spec); got != tc.want {
				t.Errorf("CanResize = %v, want %v", got, tc.want)
			}
		})
	}
	imageOnly := CalculateSpec(oldTmpl, oldTmpl, "rev-2")
	if pod := runningPod(oldTmpl); !CanResize(pod, imageOnly) {
		t.Error("an update without resources needs nothing of the node")
	}
}

func TestResized(t *testing.T) {
	oldTmpl, _ := resizeTemplates()
	for _, tc := range []struct {
		name   string
		change func(*corev1.Pod)
		want   bool
	}{
		{"status shows the spec", func(*corev1.Pod) {}, true},
		{"same quantity, other spelling", func(p *corev1.Pod) {
			p.Status.ContainerStatuses[0].Resources.Limits[cpu] = resource.MustParse("0.2")
		}, true},
		{"status still at the old cpu", func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Requests[cpu] = resource.MustParse("300m")
		}, false},
		{"status without resources", func(p *corev1.Pod) { p.Status.ContainerStatuses[1].Resources = nil }, false},
		{"a resize in progress", func(p *corev1.Pod) {
			p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodResizeInProgress, Status: corev1.ConditionTrue})
		}, false},
		{"a resize pending (deferred)", func(p *corev1.Pod) {
			p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodResizePending, Status: corev1.ConditionTrue, Reason: corev1.PodReasonDeferred})
		}, false},
		{"status reports more than the spec names (kubelet defaults)", func(p *corev1.Pod) {
			p.Status.ContainerStatuses[1].Resources = &corev1.ResourceRequirements{Requests: corev1.ResourceList{cpu: resource.MustParse("2m")}}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := resizablePod(oldTmpl)
			tc.change(pod)
			if got := Resized(pod); got != tc.want {
				t.Errorf("Resized = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestResizeRestarts(t *testing.T) {
	oldTmpl, newTmpl := resizeTemplates()
	newTmpl.Spec.Containers[0].Resources.Requests[cpu] = resource.MustParse("300m")
	spec := CalculateSpecWith(oldTmpl, newTmpl, "rev-2", Options{VerticalScaling: true})
	for _, tc := range []struct {
		name   string
		policy []corev1.ContainerResizePolicy
		want   bool
	}{
		{"default policy", nil, false},
		{"memory restarts, cpu changes", []corev1.ContainerResizePolicy{{ResourceName: mem, RestartPolicy: corev1.RestartContainer}}, false},
		{"cpu restarts, cpu changes", []corev1.ContainerResizePolicy{{ResourceName: cpu, RestartPolicy: corev1.RestartContainer}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := resizablePod(oldTmpl)
			pod.Spec.Containers[0].ResizePolicy = tc.policy
			if got := ResizeRestarts(pod, spec); got != tc.want {
				t.Errorf("ResizeRestarts = %v, want %v", got, tc.want)
			}
		})
	}
}

// Prepare puts the new resources into the copy (for the resize write) and records the
// resources the containers ran with; CheckCompleted waits for the status to show them.
func TestPrepareAndCompleteResize(t *testing.T) {
	oldTmpl, newTmpl := resizeTemplates()
	newMain := res(rl{cpu: "200m", mem: "96Mi"}, rl{cpu: "400m", mem: "256Mi"})
	newTmpl.Spec.Containers[0].Resources = newMain
	spec := CalculateSpecWith(oldTmpl, newTmpl, "rev-2", Options{VerticalScaling: true})
	pod := resizablePod(oldTmpl)
	got, err := Prepare(pod, spec, "", t0)
	if err != nil {
		t.Fatal(err)
	}
	if !apiequality.Semantic.DeepEqual(got.Spec.Containers[0].Resources, newMain) || !apiequality.Semantic.DeepEqual(pod.Spec.Containers[0].Resources, oldTmpl.Spec.Containers[0].Resources) {
		t.Fatalf("resources: copy %+v, original %+v", got.Spec.Containers[0].Resources, pod.Spec.Containers[0].Resources)
	}
	state, err := GetState(got)
	if err != nil {
		t.Fatal(err)
	}
	if !state.UpdateResources || !state.VerticalUpdateOnly || state.UpdateImages {
		t.Errorf("state flags %+v", state)
	}
	last := state.LastContainerStatuses["main"]
	if last.ImageID != "id-app:1" || !apiequality.Semantic.DeepEqual(last.Resources, oldTmpl.Spec.Containers[0].Resources) {
		t.Errorf("recorded %+v", last)
	}
	if c, _ := CheckCompleted(got); c || !IsInPlaceUpdating(got) {
		t.Error("completed before the status shows the new resources")
	}
	got.Status.ContainerStatuses[0].Resources = newMain.DeepCopy()
	if c, next := CheckCompleted(got); !c || next || IsInPlaceUpdating(got) {
		t.Errorf("CheckCompleted = %v, %v once the status shows them", c, next)
	}
}

// The executor resizes first (the budget's disruption), then moves the revision label
// and the state; a refused resize writes nothing else; a resize that went through
// before a failed second write is not sent again.
func TestExecutorResize(t *testing.T) {
	oldTmpl, newTmpl := resizeTemplates()
	newTmpl.Spec.Containers[0].Resources = res(rl{cpu: "200m", mem: "96Mi"}, rl{cpu: "400m", mem: "256Mi"})
	newTmpl.Spec.Containers[1].Image = "proxy:2"
	spec := CalculateSpecWith(oldTmpl, newTmpl, "rev-2", Options{VerticalScaling: true})
	ctx := context.Background()

	f := &fakePods{pod: resizablePod(oldTmpl), writes: map[string]int{}}
	e := &Executor{Pods: f, Now: func() metav1.Time { return t0 }}
	if _, err := e.Update(ctx, f.pod, spec, &pub.InPlaceUpdateStrategy{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"resize", "pod"}, f.order); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	if !apiequality.Semantic.DeepEqual(f.pod.Spec.Containers[0].Resources, newTmpl.Spec.Containers[0].Resources) ||
		f.pod.Spec.Containers[1].Image != "proxy:2" || f.pod.Labels[pub.ControllerRevisionHashLabelKey] != "rev-2" {
		t.Errorf("pod after Update: %+v", f.pod)
	}

	refused := errors.New("429: no more pods may be unavailable")
	f = &fakePods{pod: resizablePod(oldTmpl), writes: map[string]int{}, refuse: map[string]error{"resize": refused}}
	e.Pods = f
	if _, err := e.Update(ctx, f.pod, spec, &pub.InPlaceUpdateStrategy{}); !errors.Is(err, refused) {
		t.Fatalf("Update = %v, want the refusal", err)
	}
	if len(f.order) != 0 || f.pod.Labels[pub.ControllerRevisionHashLabelKey] != "rev-1" {
		t.Errorf("a refused resize wrote %v", f.order)
	}

	// resized, then the pod patch failed: the next try sends the pod patch only
	f = &fakePods{pod: resizablePod(oldTmpl), writes: map[string]int{}, refuse: map[string]error{"pod": errors.New("conflict")}}
	e.Pods = f
	if _, err := e.Update(ctx, f.pod, spec, &pub.InPlaceUpdateStrategy{}); err == nil {
		t.Fatal("Update succeeded with the pod patch failing")
	}
	delete(f.refuse, "pod")
	f.order = nil
	if _, err := e.Update(ctx, f.pod, spec, &pub.InPlaceUpdateStrategy{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"pod"}, f.order); diff != "" {
		t.Errorf("retry writes (-want +got):\n%s", diff)
	}

	// a grace period: a resize-only update restarting nothing skips it
	only := CalculateSpecWith(oldTmpl, func() *corev1.PodTemplateSpec {
		t := newTmpl.DeepCopy()
		t.Spec.Containers[1].Image = "proxy:1"
		return t
	}(), "rev-2", Options{VerticalScaling: true})
	f = &fakePods{pod: resizablePod(oldTmpl), writes: map[string]int{}}
	e.Pods = f
	res, err := e.Update(ctx, f.pod, only, &pub.InPlaceUpdateStrategy{GracePeriodSeconds: 10})
	if err != nil || res.RequeueAfter != 0 {
		t.Fatalf("Update = %+v, %v", res, err)
	}
	if diff := cmp.Diff([]string{"resize", "pod"}, f.order); diff != "" {
		t.Errorf("resize-only with a grace period: writes (-want +got):\n%s", diff)
	}
}
