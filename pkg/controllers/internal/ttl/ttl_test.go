package ttl

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
)

func TestLeft(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	ago := func(d time.Duration) *metav1.Time { return &metav1.Time{Time: now.Add(-d)} }
	cases := []struct {
		name       string
		finished   *metav1.Time
		ttl        *int32
		wantLeft   time.Duration
		wantExpire bool
	}{
		{"no TTL", ago(time.Hour), nil, 0, false},
		{"not finished", nil, ptr.To[int32](10), 0, false},
		{"running out", ago(4 * time.Second), ptr.To[int32](10), 6 * time.Second, true},
		{"expired", ago(time.Minute), ptr.To[int32](10), -50 * time.Second, true},
		{"zero TTL expires at once", ago(0), ptr.To[int32](0), 0, true},
	}
	for _, tc := range cases {
		left, expires := Left(tc.finished, tc.ttl, now)
		if left != tc.wantLeft || expires != tc.wantExpire {
			t.Errorf("%s: Left = %v, %v; want %v, %v", tc.name, left, expires, tc.wantLeft, tc.wantExpire)
		}
	}
}

func TestExpire(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	finished := &metav1.Time{Time: now.Add(-time.Minute)}
	gone := apierrors.NewNotFound(schema.GroupResource{Resource: "jobs"}, "j")
	replaced := apierrors.NewConflict(schema.GroupResource{Resource: "jobs"}, "j", errors.New("uid precondition"))
	cases := []struct {
		name       string
		finished   *metav1.Time
		ttl        *int32
		delErr     error
		wantDelete bool
		wantAfter  time.Duration
		wantErr    bool
	}{
		{"no ttl", finished, nil, nil, false, 0, false},
		{"not finished", nil, ptr.To[int32](0), nil, false, 0, false},
		{"not yet", finished, ptr.To[int32](90), nil, false, 30 * time.Second, false},
		{"expired", finished, ptr.To[int32](60), nil, true, 0, false},
		{"already gone", finished, ptr.To[int32](0), fmt.Errorf("deleting: %w", gone), true, 0, false},
		{"replaced by a namesake", finished, ptr.To[int32](0), replaced, true, 0, false},
		{"delete fails", finished, ptr.To[int32](0), errors.New("boom"), true, 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			deleted := false
			after, err := Expire(context.Background(), tc.finished, tc.ttl, now, func(context.Context) error { deleted = true; return tc.delErr })
			if deleted != tc.wantDelete || after != tc.wantAfter || (err != nil) != tc.wantErr {
				t.Errorf("deleted %v after %v err %v; want %v %v err %v", deleted, after, err, tc.wantDelete, tc.wantAfter, tc.wantErr)
			}
		})
	}
}
