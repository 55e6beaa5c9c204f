package revisiondata

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func rev(n int64, owner types.UID) appsv1.ControllerRevision {
	yes := true
	return appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{OwnerReferences: []metav1.OwnerReference{{UID: owner, Controller: &yes}}},
		Revision:   n,
	}
}

func TestOwnedAndPick(t *testing.T) {
	revs := Owned([]appsv1.ControllerRevision{rev(3, "a"), rev(1, "a"), rev(2, "other"), rev(2, "a")}, "a")
	if len(revs) != 3 || revs[0].Revision != 1 || revs[2].Revision != 3 {
		t.Fatalf("Owned = %v, want revisions 1, 2, 3 of owner a", revs)
	}
	for _, tc := range []struct {
		revs    []appsv1.ControllerRevision
		to      int64
		want    int64
		wantErr string
	}{
		{revs: revs, to: 0, want: 2},
		{revs: revs, to: 1, want: 1},
		{revs: revs, to: 42, wantErr: "has no revision 42; available revisions: 1, 2, 3"},
		{revs: revs[:1], to: 0, wantErr: "has no previous revision to roll back to (revisions: 1)"},
		{revs: nil, to: 1, wantErr: "has no revision 1; available revisions: none"},
	} {
		got, err := Pick(tc.revs, tc.to)
		switch {
		case tc.wantErr != "":
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("Pick(%d) err = %v, want %q", tc.to, err, tc.wantErr)
			}
		case err != nil || got.Revision != tc.want:
			t.Errorf("Pick(%d) = %v, %v, want revision %d", tc.to, got, err, tc.want)
		}
	}
}
