package podprobemarker

import (
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
)

// ProbeName is the name of marker's probe in a NodePodProbe, as OpenKruise names it
// ("<marker>#<probe>").
func ProbeName(marker, probe string) string { return marker + validation.ProbeNameSeparator + probe }

// splitProbeName undoes ProbeName.
func splitProbeName(name string) (marker, probe string, ok bool) {
	return strings.Cut(name, validation.ProbeNameSeparator)
}

// probed reports whether a pod is one whose probes a node runs: bound, running, and
// not on its way out (a terminating pod's marks no longer matter).
func probed(pod *corev1.Pod) bool {
	return pod.Spec.NodeName != "" && pod.DeletionTimestamp == nil && pod.Status.Phase == corev1.PodRunning
}

// active reports whether a pod counts as matched (PodProbeMarker status.matchedPods).
func active(pod *corev1.Pod) bool {
	return pod.DeletionTimestamp == nil && pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed
}

// selects reports whether marker's selector matches pod; an invalid selector matches
// nothing (validation refuses one; this only guards against what is stored).
func selects(marker *v1alpha1.PodProbeMarker, pod *corev1.Pod) bool {
	if marker.DeletionTimestamp != nil || marker.Namespace != pod.Namespace {
		return false
	}
	sel, err := metav1.LabelSelectorAsSelector(marker.Spec.Selector)
	if err != nil || sel.Empty() {
		return false
	}
	return sel.Matches(labels.Set(pod.Labels))
}

// nodeSpec is the NodePodProbe spec of a node: each probed pod on it that a marker
// selects, with the probes of every marker that selects it whose container the pod
// has. Pods are sorted by namespace and name and markers by name, so the same
// cluster state always gives the same spec (and no write).
func nodeSpec(pods []*corev1.Pod, markers []*v1alpha1.PodProbeMarker) v1alpha1.NodePodProbeSpec {
	sorted := append([]*v1alpha1.PodProbeMarker(nil), markers...)
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i].Namespace != sorted[j].Namespace {
			return sorted[i].Namespace < sorted[j].Namespace
		}
		return sorted[i].Name < sorted[j].Name
	})
	pods = append([]*corev1.Pod(nil), pods...)
	sort.Slice(pods, func(i, j int) bool {
		if pods[i].Namespace != pods[j].Namespace {
			return pods[i].Namespace < pods[j].Namespace
		}
		return pods[i].Name < pods[j].Name
	})
	var spec v1alpha1.NodePodProbeSpec
	for _, pod := range pods {
		if !probed(pod) {
			continue
		}
		containers := map[string]bool{}
		for _, c := range pod.Spec.Containers {
			containers[c.Name] = true
		}
		var probes []v1alpha1.ContainerProbe
		for _, m := range sorted {
			if !selects(m, pod) {
				continue
			}
			for _, p := range m.Spec.Probes {
				if !containers[p.ContainerName] {
					continue
				}
				probes = append(probes, v1alpha1.ContainerProbe{
					Name: ProbeName(m.Name, p.Name), ContainerName: p.ContainerName, Probe: *p.Probe.DeepCopy(),
				})
			}
		}
		if len(probes) == 0 {
			continue
		}
		spec.PodProbes = append(spec.PodProbes, v1alpha1.PodProbe{
			Name: pod.Name, Namespace: pod.Namespace, UID: string(pod.UID), IP: pod.Status.PodIP, Probes: probes,
		})
	}
	return spec
}

// markerLookup finds a PodProbeMarker by namespace and name (nil if there is none).
type markerLookup func(namespace, name string) *v1alpha1.PodProbeMarker

// markPod returns a copy of pod carrying what its probe results say: per result, the
// labels and annotations of the marker policy of that state (those of the policies of
// other states removed) and the condition podConditionType (True on success, False on
// failure). Unknown results (no result yet) change nothing. The condition keeps its
// times while its status and message stay, so a pod that already shows a result is
// returned unchanged: a write happens only when a result changes.
func markPod(pod *corev1.Pod, results []v1alpha1.ContainerProbeState, lookup markerLookup) *corev1.Pod {
	out := pod.DeepCopy()
	for _, r := range results {
		if r.State != v1alpha1.ProbeSucceeded && r.State != v1alpha1.ProbeFailed {
			continue
		}
		markerName, probeName, ok := splitProbeName(r.Name)
		if !ok {
			continue
		}
		marker := lookup(pod.Namespace, markerName)
		if marker == nil || marker.DeletionTimestamp != nil {
			continue
		}
		var probe *v1alpha1.PodContainerProbe
		for i := range marker.Spec.Probes {
			if marker.Spec.Probes[i].Name == probeName {
				probe = &marker.Spec.Probes[i]
			}
		}
		if probe == nil {
			continue
		}
		applyPolicies(out, probe.MarkerPolicy, r.State)
		if probe.PodConditionType != "" {
			setCondition(out, probeCondition(probe.PodConditionType, r))
		}
	}
	return out
}

// applyPolicies removes the keys of the policies of other states, then sets those of
// the policy of state (a key both name ends with the matched policy's value).
func applyPolicies(pod *corev1.Pod, policies []v1alpha1.ProbeMarkerPolicy, state v1alpha1.ProbeState) {
	for _, p := range policies {
		if p.State == state {
			continue
		}
		for k := range p.Labels {
			delete(pod.Labels, k)
		}
		for k := range p.Annotations {
			delete(pod.Annotations, k)
		}
	}
	for _, p := range policies {
		if p.State != state {
			continue
		}
		if len(p.Labels) > 0 && pod.Labels == nil {
			pod.Labels = map[string]string{}
		}
		for k, v := range p.Labels {
			pod.Labels[k] = v
		}
		if len(p.Annotations) > 0 && pod.Annotations == nil {
			pod.Annotations = map[string]string{}
		}
		for k, v := range p.Annotations {
			pod.Annotations[k] = v
		}
	}
}

func probeCondition(conditionType string, r v1alpha1.ContainerProbeState) corev1.PodCondition {
	status := corev1.ConditionFalse
	if r.State == v1alpha1.ProbeSucceeded {
		status = corev1.ConditionTrue
	}
	return corev1.PodCondition{
		Type: corev1.PodConditionType(conditionType), Status: status,
		LastProbeTime: r.LastProbeTime, LastTransitionTime: r.LastTransitionTime, Message: r.Message,
	}
}

// setCondition puts c on the pod unless a condition of its type with the same status
// and message is there already (then the pod keeps it, times included).
func setCondition(pod *corev1.Pod, c corev1.PodCondition) {
	for i := range pod.Status.Conditions {
		cur := &pod.Status.Conditions[i]
		if cur.Type != c.Type {
			continue
		}
		if cur.Status != c.Status || cur.Message != c.Message {
			*cur = c
		}
		return
	}
	pod.Status.Conditions = append(pod.Status.Conditions, c)
}
