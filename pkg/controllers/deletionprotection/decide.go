package deletionprotection

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// deletionBegan reports whether the change from old to cur (cur nil: the object is
// gone) is the beginning of its deletion: the deletionTimestamp appears, or the object
// disappears without one having been seen. Each deletion begins once.
func deletionBegan(old, cur *unstructured.Unstructured) bool {
	if old == nil || old.GetDeletionTimestamp() != nil {
		return false
	}
	return cur == nil || cur.GetDeletionTimestamp() != nil
}
