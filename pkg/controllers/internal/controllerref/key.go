package controllerref

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// OwnerKey is the queue key ("<namespace>/<name>") of the object controlling obj, when
// that controller is of kind owner (any version of its group).
func OwnerKey(obj metav1.Object, owner schema.GroupKind) (string, bool) {
	ref := metav1.GetControllerOfNoCopy(obj)
	if ref == nil || ref.Kind != owner.Kind {
		return "", false
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil || gv.Group != owner.Group {
		return "", false
	}
	return obj.GetNamespace() + "/" + ref.Name, true
}
