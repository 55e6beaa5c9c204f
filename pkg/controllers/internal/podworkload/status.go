package podworkload

import (
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
	forked "k8s.io/apimachinery/third_party/forked/golang/reflect"
)

// ignoringTimes is apiequality.Semantic with every metav1.Time equal to every other.
// Workload statuses carry times only in their conditions' timestamps, which change on
// every failure of a sync: a repeated failure is not news worth a write.
var ignoringTimes = func() conversion.Equalities {
	e := conversion.Equalities{Equalities: forked.Equalities{}}
	for t, f := range apiequality.Semantic.Equalities {
		e.Equalities[t] = f
	}
	// AddFunc fails only for a func of the wrong shape; the tests see times ignored.
	_ = e.AddFunc(func(a, b metav1.Time) bool { return true })
	return e
}()

// StatusUnchanged reports whether computed says nothing stored does not, condition
// timestamps aside.
func StatusUnchanged[S any](stored, computed S) bool {
	return ignoringTimes.DeepEqual(stored, computed)
}
