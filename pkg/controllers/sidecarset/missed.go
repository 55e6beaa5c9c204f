package sidecarset

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
)

// ReasonNotInjected is the event reason on a pod a SidecarSet selects but whose
// sidecars were not injected at creation.
const ReasonNotInjected = "SidecarSetNotInjected"

// reportMissedInjection records an event on a new pod that a SidecarSet (injecting,
// created before the pod) selects but did not get into: with the webhook's
// failurePolicy Ignore, a pod created while kruise-apiserver was unreachable has no
// sidecars, and says so instead of running without them silently.
func (c *Controller) reportMissedInjection(pod *corev1.Pod) {
	if pod.DeletionTimestamp != nil {
		return
	}
	injected := map[string]bool{}
	for _, n := range strings.Split(pod.Annotations[pub.SidecarSetListAnnotation], ",") {
		injected[n] = true
	}
	all, err := c.sidecarSets.List(labels.Everything())
	if err != nil {
		return
	}
	nsLabels := func(name string) (labels.Set, error) {
		ns, err := c.namespaces.Get(name)
		if err != nil {
			return nil, err
		}
		return ns.Labels, nil
	}
	for _, v := range all {
		if injected[v.Name] || v.Spec.InjectionStrategy.Paused || v.DeletionTimestamp != nil ||
			!v.CreationTimestamp.Before(&pod.CreationTimestamp) {
			continue
		}
		// Cheap checks first: every pod of the cluster passes here when the controller starts.
		if v.Spec.Namespace != "" && v.Spec.Namespace != pod.Namespace {
			continue
		}
		if sel, err := metav1.LabelSelectorAsSelector(v.Spec.Selector); err != nil || !sel.Matches(labels.Set(pod.Labels)) {
			continue
		}
		ss := &apps.SidecarSet{}
		if err := c.scheme.Convert(v, ss, nil); err != nil {
			continue
		}
		if match, err := sidecarset.Matches(ss, pod, nsLabels); err != nil || !match || hasAllSidecars(pod, ss) {
			continue
		}
		c.recorder.Eventf(pod, corev1.EventTypeWarning, ReasonNotInjected,
			"SidecarSet %s selects this pod but its sidecars were not injected when the pod was created "+
				"(the pod webhook was unreachable or skipped); recreate the pod to get them", v.Name)
	}
}

// hasAllSidecars: the pod already has containers of every name the SidecarSet injects
// (its own, or another SidecarSet's), so there was nothing to inject.
func hasAllSidecars(pod *corev1.Pod, ss *apps.SidecarSet) bool {
	names := map[string]bool{}
	for _, c := range append(append([]corev1.Container(nil), pod.Spec.InitContainers...), pod.Spec.Containers...) {
		names[c.Name] = true
	}
	for _, sc := range ss.Spec.Containers {
		if sc.UpgradeStrategy.UpgradeType == apps.SidecarContainerHotUpgrade {
			n := pub.HotUpgradeContainerNames(sc.Name)
			if !names[n[0]] || !names[n[1]] {
				return false
			}
		} else if !names[sc.Name] {
			return false
		}
	}
	for _, sc := range ss.Spec.InitContainers {
		if !names[sc.Name] {
			return false
		}
	}
	return true
}
