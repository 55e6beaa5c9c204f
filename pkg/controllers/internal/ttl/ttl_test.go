package ttl

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
