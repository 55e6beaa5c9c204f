package revisiondata

import (
	"fmt"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Owned returns the revisions whose controller is the workload with uid, oldest
// first: a deleted namesake's revisions never count.
func Owned(revs []appsv1.ControllerRevision, uid types.UID) []appsv1.ControllerRevision {
	var owned []appsv1.ControllerRevision
	for _, rev := range revs {
		if ref := metav1.GetControllerOf(&rev); ref != nil && ref.UID == uid {
			owned = append(owned, rev)
		}
	}
	sort.Slice(owned, func(i, j int) bool { return owned[i].Revision < owned[j].Revision })
	return owned
}

// Pick finds the revision a rollback restores among revs (oldest first): toRevision,
// or for 0 the one before the newest. The kruise-apiserver's rollback subresource and
// the plugin's client dry run both pick with it, so they cannot disagree. The error
// completes a sentence that starts with the workload's name.
func Pick(revs []appsv1.ControllerRevision, toRevision int64) (*appsv1.ControllerRevision, error) {
	if toRevision == 0 {
		if len(revs) < 2 {
			return nil, fmt.Errorf("has no previous revision to roll back to (revisions: %s)", numbers(revs))
		}
		return &revs[len(revs)-2], nil
	}
	for i := range revs {
		if revs[i].Revision == toRevision {
			return &revs[i], nil
		}
	}
	return nil, fmt.Errorf("has no revision %d; available revisions: %s", toRevision, numbers(revs))
}

func numbers(revs []appsv1.ControllerRevision) string {
	if len(revs) == 0 {
		return "none"
	}
	out := make([]string, 0, len(revs))
	for _, r := range revs {
		out = append(out, fmt.Sprint(r.Revision))
	}
	return strings.Join(out, ", ")
}
