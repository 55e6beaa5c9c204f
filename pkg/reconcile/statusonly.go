package reconcile

import (
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
)

// onlyStatusChanged reports whether an update from old to cur can only have been a
// status write: the generation (bumped by every spec change of our kinds) and the
// metadata a controller acts on are unchanged. Objects without a generation (core
// kinds other controllers watch) never count as status-only.
func onlyStatusChanged(old, cur interface{}) bool {
	o, err := meta.Accessor(old)
	if err != nil {
		return false
	}
	c, err := meta.Accessor(cur)
	if err != nil {
		return false
	}
	if c.GetGeneration() == 0 || o.GetGeneration() != c.GetGeneration() {
		return false
	}
	return o.GetDeletionTimestamp().Equal(c.GetDeletionTimestamp()) &&
		apiequality.Semantic.DeepEqual(o.GetLabels(), c.GetLabels()) &&
		apiequality.Semantic.DeepEqual(o.GetAnnotations(), c.GetAnnotations()) &&
		apiequality.Semantic.DeepEqual(o.GetFinalizers(), c.GetFinalizers()) &&
		apiequality.Semantic.DeepEqual(o.GetOwnerReferences(), c.GetOwnerReferences())
}
