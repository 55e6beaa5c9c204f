package inplaceupdate

import (
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
)

// Options turn on what an in-place update may change beyond images and metadata.
type Options struct {
	// VerticalScaling: container cpu and memory requests/limits may change, applied
	// through the pod's resize subresource (OpenKruise's gate
	// InPlaceWorkloadVerticalScaling). Off: a resource change recreates the pod.
	VerticalScaling bool
}

// resizable are the resources kube-apiserver lets the resize subresource change
// (ValidatePodResize: "only cpu and memory resources are mutable").
var resizable = map[corev1.ResourceName]bool{corev1.ResourceCPU: true, corev1.ResourceMemory: true}

// resizableChange reports whether a container's resources may go from old to cur
// through the resize subresource, judged as kube-apiserver's ValidatePodResize judges
// it for one container: only cpu and memory quantities change, none is removed (a
// request or limit may be added), claims stay. The pod's QoS class is checked apart
// (sameQOS), since it depends on every container.
func resizableChange(old, cur corev1.ResourceRequirements) bool {
	if !apiequality.Semantic.DeepEqual(old.Claims, cur.Claims) {
		return false
	}
	return resizableList(old.Requests, cur.Requests) && resizableList(old.Limits, cur.Limits)
}

func resizableList(old, cur corev1.ResourceList) bool {
	for name, q := range old {
		n, ok := cur[name]
		if !ok {
			return false // removing a request or limit is refused
		}
		if !resizable[name] && q.Cmp(n) != 0 {
			return false
		}
	}
	for name := range cur {
		if _, ok := old[name]; !ok && !resizable[name] {
			return false
		}
	}
	return true
}

// qosClass is the QoS class kube computes for a pod spec (v1 helper qos.ComputePodQOS,
// for container-level resources): BestEffort without any cpu/memory request or limit;
// Guaranteed when every container (init containers included) limits both cpu and
// memory and requests exactly its limits; Burstable otherwise. A limit without a
// request counts as that request, as kube's defaulting makes it.
func qosClass(spec *corev1.PodSpec) corev1.PodQOSClass {
	any, guaranteed := false, true
	check := func(c *corev1.Container) {
		req, lim := c.Resources.Requests, c.Resources.Limits
		for name := range resizable {
			r, hasReq := req[name]
			l, hasLim := lim[name]
			if (hasReq && !r.IsZero()) || (hasLim && !l.IsZero()) {
				any = true
			}
			if !hasLim || l.IsZero() {
				guaranteed = false
				continue
			}
			if hasReq && r.Cmp(l) != 0 {
				guaranteed = false
			}
		}
	}
	for i := range spec.InitContainers {
		check(&spec.InitContainers[i])
	}
	for i := range spec.Containers {
		check(&spec.Containers[i])
	}
	switch {
	case !any:
		return corev1.PodQOSBestEffort
	case guaranteed:
		return corev1.PodQOSGuaranteed
	}
	return corev1.PodQOSBurstable
}

// CanResize reports whether this pod can take the spec's resource changes through its
// resize subresource, as kube-apiserver will judge the request: the node reports
// container resources in status for the running containers (kube's
// isPodResizeRequestSupported; a node that does not refuses every resize), the pod
// has no pod-level resources, and its QoS class stays. A spec without resource
// changes needs nothing of the node. When it returns false the pod is recreated.
func CanResize(pod *corev1.Pod, spec *UpdateSpec) bool {
	if spec == nil || len(spec.ContainerResources) == 0 {
		return true
	}
	if pod.Spec.Resources != nil {
		return false
	}
	for i := range pod.Status.ContainerStatuses {
		cs := &pod.Status.ContainerStatuses[i]
		if cs.State.Running != nil && cs.Resources == nil {
			return false
		}
	}
	resized := pod.Spec.DeepCopy()
	for i := range resized.Containers {
		c := &resized.Containers[i]
		r, ok := spec.ContainerResources[c.Name]
		if !ok {
			continue
		}
		if !resizableChange(c.Resources, r) {
			return false
		}
		c.Resources = *r.DeepCopy()
	}
	return qosClass(&pod.Spec) == qosClass(resized)
}

// ResizeRestarts reports whether resizing the pod as the spec says restarts a
// container: a changed resource whose container's resizePolicy is RestartContainer.
// Without a restart the pod keeps serving through the resize, so a resize-only update
// needs no grace period and no InPlaceUpdateReady=False (as OpenKruise's
// CheckPodNeedsBeUnready decides).
func ResizeRestarts(pod *corev1.Pod, spec *UpdateSpec) bool {
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		r, ok := spec.ContainerResources[c.Name]
		if !ok {
			continue
		}
		for _, p := range c.ResizePolicy {
			if p.RestartPolicy != corev1.RestartContainer {
				continue
			}
			if !quantityEqual(c.Resources.Requests, r.Requests, p.ResourceName) ||
				!quantityEqual(c.Resources.Limits, r.Limits, p.ResourceName) {
				return true
			}
		}
	}
	return false
}

func quantityEqual(a, b corev1.ResourceList, name corev1.ResourceName) bool {
	qa, okA := a[name]
	qb, okB := b[name]
	return okA == okB && qa.Cmp(qb) == 0
}

// applyResources writes the spec's container resources into pod (the desired spec of
// the resize) and records the resources the containers ran with before in state, as
// OpenKruise records them (LastContainerStatuses[name].Resources, cpu and memory from
// the status).
func applyResources(pod *corev1.Pod, spec *UpdateSpec, state *State) {
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		r, ok := spec.ContainerResources[c.Name]
		if !ok {
			continue
		}
		c.Resources = *r.DeepCopy()
		last := state.LastContainerStatuses[c.Name]
		cs := containerStatus(pod, c.Name)
		if last.ImageID == "" && cs != nil {
			last.ImageID = cs.ImageID
		}
		if cs != nil && cs.Resources != nil {
			last.Resources = corev1.ResourceRequirements{
				Requests: onlyResizable(cs.Resources.Requests),
				Limits:   onlyResizable(cs.Resources.Limits),
			}
		}
		state.LastContainerStatuses[c.Name] = last
	}
}

func onlyResizable(l corev1.ResourceList) corev1.ResourceList {
	var out corev1.ResourceList
	for name, q := range l {
		if resizable[name] {
			if out == nil {
				out = corev1.ResourceList{}
			}
			out[name] = q.DeepCopy()
		}
	}
	return out
}

// Resized reports whether the node runs every container with the cpu and memory its
// spec asks for: status.containerStatuses[].resources shows the spec's requests and
// limits, and no PodResizePending or PodResizeInProgress condition is left (kube
// v1.33+: the kubelet sets them while a resize waits or is being actuated).
func Resized(pod *corev1.Pod) bool {
	for _, t := range []corev1.PodConditionType{corev1.PodResizePending, corev1.PodResizeInProgress} {
		if c := podcondition.Find(pod.Status.Conditions, t); c != nil && c.Status == corev1.ConditionTrue {
			return false
		}
	}
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		cs := containerStatus(pod, c.Name)
		if cs == nil || cs.Resources == nil {
			return false
		}
		if !reports(c.Resources.Requests, cs.Resources.Requests) || !reports(c.Resources.Limits, cs.Resources.Limits) {
			return false
		}
	}
	return true
}

// reports: every resizable quantity the spec names is what the status shows.
func reports(spec, status corev1.ResourceList) bool {
	for name, q := range spec {
		if !resizable[name] {
			continue
		}
		s, ok := status[name]
		if !ok || q.Cmp(s) != 0 {
			return false
		}
	}
	return true
}
