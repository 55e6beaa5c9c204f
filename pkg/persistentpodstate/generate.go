package persistentpodstate

import (
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// generatedWeight is the weight of the preferred term generated from the annotation
// (OpenKruise's).
const generatedWeight = 100

// Generated is the PersistentPodState a workload's annotations ask for (nil when they
// ask for none): kruise.io/auto-generate-persistent-pod-state "true" and at least one
// of the required and preferred topology annotations (comma-separated node label
// keys); kruise.io/persistent-pod-annotations adds the annotations to record. It is
// named like the workload and controlled by it (deleted with it).
func Generated(workload metav1.Object, apiVersion, kind string) *appsv1beta1.PersistentPodState {
	a := workload.GetAnnotations()
	if a[v1alpha1.AnnotationAutoGeneratePersistentPodState] != "true" {
		return nil
	}
	required := splitKeys(a[v1alpha1.AnnotationRequiredPersistentTopology])
	preferred := splitKeys(a[v1alpha1.AnnotationPreferredPersistentTopology])
	if len(required) == 0 && len(preferred) == 0 {
		return nil
	}
	pps := &appsv1beta1.PersistentPodState{
		ObjectMeta: metav1.ObjectMeta{
			Name:      workload.GetName(),
			Namespace: workload.GetNamespace(),
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(workload,
				schemaGVK(apiVersion, kind))},
		},
		Spec: appsv1beta1.PersistentPodStateSpec{
			TargetReference: appsv1beta1.TargetReference{APIVersion: apiVersion, Kind: kind, Name: workload.GetName()},
		},
	}
	if len(required) > 0 {
		pps.Spec.RequiredPersistentTopology = &appsv1beta1.NodeTopologyTerm{Keys: required}
	}
	if len(preferred) > 0 {
		pps.Spec.PreferredPersistentTopology = []appsv1beta1.PreferredTopologyTerm{{Weight: generatedWeight,
			Preference: appsv1beta1.NodeTopologyTerm{Keys: preferred}}}
	}
	for _, k := range splitKeys(a[v1alpha1.AnnotationPersistentPodAnnotations]) {
		pps.Spec.PersistentPodAnnotations = append(pps.Spec.PersistentPodAnnotations, appsv1beta1.PersistentPodAnnotation{Key: k})
	}
	return pps
}

// splitKeys reads a comma-separated list, ignoring blanks around and between entries.
func splitKeys(s string) []string {
	var out []string
	for _, k := range strings.Split(s, ",") {
		if k = strings.TrimSpace(k); k != "" {
			out = append(out, k)
		}
	}
	return out
}

func schemaGVK(apiVersion, kind string) schema.GroupVersionKind {
	gv, _ := schema.ParseGroupVersion(apiVersion)
	return gv.WithKind(kind)
}
