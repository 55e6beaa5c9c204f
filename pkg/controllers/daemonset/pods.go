package daemonset

import (
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilrand "k8s.io/apimachinery/pkg/util/rand"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/nodeplacement"
)

// newPod builds the pod of ds for node at a revision. Its name is chosen here, not by
// generateName, so that the creation can be expected by name before it is sent.
// It is pinned to the node by a required node affinity on metadata.name, as kube's
// DaemonSet controller pins it: the scheduler still binds it (and so accounts for its
// resources and ports), but to that node only.
func newPod(ds *v1beta1.DaemonSet, owner metav1.OwnerReference, tmpl *corev1.PodTemplateSpec, revision, node string) *corev1.Pod {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:            ds.Name + "-" + utilrand.String(5),
			Namespace:       ds.Namespace,
			Labels:          maps.Clone(tmpl.Labels),
			Annotations:     maps.Clone(tmpl.Annotations),
			OwnerReferences: []metav1.OwnerReference{owner},
		},
		Spec: *tmpl.Spec.DeepCopy(),
	}
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels[pub.ControllerRevisionHashLabelKey] = revision
	pod.Spec.Tolerations = nodeplacement.WithDaemonTolerations(&pod.Spec)
	pod.Spec.Affinity = nodeplacement.PinnedAffinity(pod.Spec.Affinity, node)
	if inPlace(ds) {
		inplaceupdate.InjectReadinessGate(pod)
	}
	lifecycle.SetInitialState(pod, ds.Spec.Lifecycle, metav1.Now())
	return pod
}

// sortOldestFirst orders a node's pods as kube's DaemonSet controller ranks them: the
// oldest first (it is the one kept, and the one status reports), by name on a tie.
func sortOldestFirst(pods []*corev1.Pod) {
	slices.SortStableFunc(pods, func(a, b *corev1.Pod) int {
		if c := a.CreationTimestamp.Compare(b.CreationTimestamp.Time); c != 0 {
			return c
		}
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
}
