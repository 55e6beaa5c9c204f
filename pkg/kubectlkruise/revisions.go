package kubectlkruise

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes"

	"github.com/kruise-native/kruise-native/pkg/revisiondata"
)

// ownedRevisions lists the ControllerRevisions the workload controls, oldest first.
// The list is narrowed by the workload's selector (revisions carry its pod labels) and
// then filtered by controller UID, so a deleted namesake's revisions never count.
func ownedRevisions(ctx context.Context, kube kubernetes.Interface, t *target) ([]appsv1.ControllerRevision, error) {
	sel, err := selectorOf(t.Object)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.ref(), err)
	}
	list, err := kube.AppsV1().ControllerRevisions(t.namespace()).List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		return nil, fmt.Errorf("listing revisions of %s: %w", t.ref(), err)
	}
	return revisiondata.Owned(list.Items, t.Object.GetUID()), nil
}

// selectorOf returns spec.selector as a label selector string.
func selectorOf(obj *unstructured.Unstructured) (string, error) {
	raw, found, err := unstructured.NestedMap(obj.Object, "spec", "selector")
	if err != nil || !found {
		return "", fmt.Errorf("no spec.selector: %v", err)
	}
	var ls metav1.LabelSelector
	if err := runtimeFromUnstructured(raw, &ls); err != nil {
		return "", fmt.Errorf("spec.selector: %w", err)
	}
	sel, err := metav1.LabelSelectorAsSelector(&ls)
	if err != nil {
		return "", fmt.Errorf("spec.selector: %w", err)
	}
	return sel.String(), nil
}
