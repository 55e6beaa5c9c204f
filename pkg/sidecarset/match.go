package sidecarset

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// NamespaceLabels returns the labels of a namespace.
type NamespaceLabels func(namespace string) (labels.Set, error)

// Matches reports whether ss selects pod: the pod is in ss's namespace (or one its
// namespace selector selects) and its labels match ss's selector.
func Matches(ss *apps.SidecarSet, pod *corev1.Pod, nsLabels NamespaceLabels) (bool, error) {
	if ss.Spec.Namespace != "" && ss.Spec.Namespace != pod.Namespace {
		return false, nil
	}
	sel, err := metav1.LabelSelectorAsSelector(ss.Spec.Selector)
	if err != nil {
		return false, fmt.Errorf("selector of SidecarSet %s: %w", ss.Name, err)
	}
	// Validation never lets an empty selector in; it would select every pod.
	if sel.Empty() || !sel.Matches(labels.Set(pod.Labels)) {
		return false, nil
	}
	if ss.Spec.NamespaceSelector == nil {
		return true, nil
	}
	nsSel, err := metav1.LabelSelectorAsSelector(ss.Spec.NamespaceSelector)
	if err != nil {
		return false, fmt.Errorf("namespace selector of SidecarSet %s: %w", ss.Name, err)
	}
	l, err := nsLabels(pod.Namespace)
	if err != nil {
		return false, fmt.Errorf("labels of namespace %s: %w", pod.Namespace, err)
	}
	return nsSel.Matches(l), nil
}
