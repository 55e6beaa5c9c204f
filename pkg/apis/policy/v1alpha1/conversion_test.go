package v1alpha1_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/policy"
	"github.com/kruise-native/kruise-native/pkg/apis/policy/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
)

// v1alpha1 carries v1beta1's protectOperations, protectTotalReplicas and
// ignoredPodSelector in annotations: written from the hub's fields, read back into
// them, the user's other annotations untouched.
func TestAnnotationsCarryV1beta1Fields(t *testing.T) {
	in := &v1alpha1.PodUnavailableBudget{ObjectMeta: metav1.ObjectMeta{Name: "pub", Annotations: map[string]string{
		"team":                                 "web",
		v1alpha1.PubProtectOperationAnnotation: "DELETE, EVICT",
		v1alpha1.PubProtectTotalReplicasAnnotation: "4",
		v1alpha1.PubIgnoredPodSelectorAnnotation:   `{"matchLabels":{"canary":"true"}}`,
	}}}
	hub := &policy.PodUnavailableBudget{}
	if err := scheme.Scheme.Convert(in, hub, nil); err != nil {
		t.Fatal(err)
	}
	if len(hub.Spec.ProtectOperations) != 2 || hub.Spec.ProtectOperations[1] != policy.PubEvictOperation ||
		hub.Spec.ProtectTotalReplicas == nil || *hub.Spec.ProtectTotalReplicas != 4 ||
		hub.Spec.IgnoredPodSelector == nil || hub.Spec.IgnoredPodSelector.MatchLabels["canary"] != "true" {
		t.Errorf("hub spec %+v", hub.Spec)
	}
	if len(hub.Annotations) != 1 || hub.Annotations["team"] != "web" {
		t.Errorf("hub annotations %v: the carried ones must move to the fields", hub.Annotations)
	}
	if len(in.Annotations) != 4 {
		t.Errorf("the conversion changed its input: %v", in.Annotations)
	}

	out := &v1alpha1.PodUnavailableBudget{}
	if err := scheme.Scheme.Convert(hub, out, nil); err != nil {
		t.Fatal(err)
	}
	if got := out.Annotations[v1alpha1.PubProtectOperationAnnotation]; got != "DELETE,EVICT" {
		t.Errorf("operations annotation %q", got)
	}
	if out.Annotations[v1alpha1.PubProtectTotalReplicasAnnotation] != "4" || out.Annotations["team"] != "web" ||
		out.Annotations[v1alpha1.PubIgnoredPodSelectorAnnotation] == "" {
		t.Errorf("v1alpha1 annotations %v", out.Annotations)
	}
	if len(hub.Annotations) != 1 {
		t.Errorf("the conversion changed the hub's annotations: %v", hub.Annotations)
	}
}
