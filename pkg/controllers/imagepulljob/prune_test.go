package imagepulljob

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

func TestPruneTags(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	finished := func(ago time.Duration, phase v1alpha1.ImagePullPhase) v1alpha1.ImageTagStatus {
		return v1alpha1.ImageTagStatus{Tag: "1", Phase: phase, Version: 1, CompletionTime: &metav1.Time{Time: now.Add(-ago)}}
	}
	job := func(name string) corev1.ObjectReference {
		return corev1.ObjectReference{Kind: "ImagePullJob", Namespace: "ns", Name: name, UID: "uid-" + "name"}
	}
	alive := map[string]bool{"live": true}
	exists := func(r corev1.ObjectReference) bool { return alive[r.Name] }

	cases := []struct {
		name     string
		tag      v1alpha1.ImageTagSpec
		status   []v1alpha1.ImageTagStatus
		wantKept bool
		wantNext time.Duration
	}{
		{name: "no ttl, no owners: kept", tag: v1alpha1.ImageTagSpec{Tag: "1", Version: 1}, wantKept: true},
		{name: "ttl, still pulling: kept",
			tag:      v1alpha1.ImageTagSpec{Tag: "1", Version: 1, PullPolicy: &v1alpha1.ImageTagPullPolicy{TTLSecondsAfterFinished: ptr.To[int32](300)}},
			status:   []v1alpha1.ImageTagStatus{{Tag: "1", Phase: v1alpha1.ImagePhasePulling, Version: 1}},
			wantKept: true},
		{name: "ttl running out: kept, look again then",
			tag:      v1alpha1.ImageTagSpec{Tag: "1", Version: 1, PullPolicy: &v1alpha1.ImageTagPullPolicy{TTLSecondsAfterFinished: ptr.To[int32](300)}},
			status:   []v1alpha1.ImageTagStatus{finished(100*time.Second, v1alpha1.ImagePhaseSucceeded)},
			wantKept: true, wantNext: 200 * time.Second},
		{name: "ttl passed after success: pruned",
			tag:    v1alpha1.ImageTagSpec{Tag: "1", Version: 1, PullPolicy: &v1alpha1.ImageTagPullPolicy{TTLSecondsAfterFinished: ptr.To[int32](300)}},
			status: []v1alpha1.ImageTagStatus{finished(301*time.Second, v1alpha1.ImagePhaseSucceeded)}},
		{name: "ttl passed after failure: pruned",
			tag:    v1alpha1.ImageTagSpec{Tag: "1", Version: 1, PullPolicy: &v1alpha1.ImageTagPullPolicy{TTLSecondsAfterFinished: ptr.To[int32](0)}},
			status: []v1alpha1.ImageTagStatus{finished(time.Second, v1alpha1.ImagePhaseFailed)}},
		{name: "finished status of an older version does not count",
			tag:      v1alpha1.ImageTagSpec{Tag: "1", Version: 2, PullPolicy: &v1alpha1.ImageTagPullPolicy{TTLSecondsAfterFinished: ptr.To[int32](0)}},
			status:   []v1alpha1.ImageTagStatus{finished(time.Hour, v1alpha1.ImagePhaseSucceeded)},
			wantKept: true},
		{name: "owning job alive: kept", tag: v1alpha1.ImageTagSpec{Tag: "1", OwnerReferences: []corev1.ObjectReference{job("live")}}, wantKept: true},
		{name: "owning job gone: pruned", tag: v1alpha1.ImageTagSpec{Tag: "1", OwnerReferences: []corev1.ObjectReference{job("gone")}}},
		{name: "one of two owners gone: kept", tag: v1alpha1.ImageTagSpec{Tag: "1", OwnerReferences: []corev1.ObjectReference{job("gone"), job("live")}}, wantKept: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ni := &v1alpha1.NodeImage{
				Spec: v1alpha1.NodeImageSpec{Images: map[string]v1alpha1.ImageSpec{
					"nginx":  {Tags: []v1alpha1.ImageTagSpec{tc.tag}},
					"static": {Tags: []v1alpha1.ImageTagSpec{{Tag: "keep"}}},
				}},
				Status: v1alpha1.NodeImageStatus{ImageStatuses: map[string]v1alpha1.ImageStatus{"nginx": {Tags: tc.status}}},
			}
			before := ni.DeepCopy()
			spec, next := PruneTags(ni, exists, now)
			if next != tc.wantNext {
				t.Errorf("next = %v, want %v", next, tc.wantNext)
			}
			if ni.Spec.Images["nginx"].Tags[0].Tag != before.Spec.Images["nginx"].Tags[0].Tag {
				t.Errorf("input modified")
			}
			got := ni.Spec
			if spec != nil {
				got = *spec
			}
			_, kept := got.Images["nginx"]
			if kept != tc.wantKept {
				t.Fatalf("nginx kept = %v, want %v (spec %+v)", kept, tc.wantKept, got)
			}
			if _, ok := got.Images["static"]; !ok {
				t.Errorf("untouched image was dropped")
			}
			if tc.wantKept && len(tc.tag.OwnerReferences) == 2 {
				if refs := got.Images["nginx"].Tags[0].OwnerReferences; len(refs) != 1 || refs[0].Name != "live" {
					t.Errorf("owners = %v, want only the live job", refs)
				}
			}
		})
	}
}
