// Package ttl is the ttlSecondsAfterFinished rule every finished Kruise object follows
// (jobs, container recreation requests, pulled NodeImage tags): it expires that many
// seconds after it finished.
package ttl

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Left is how long until an object that finished at finishedAt expires under
// ttlSecondsAfterFinished seconds (0 or less: it has expired). expires is false when
// it never does: no TTL, or not finished.
func Left(finishedAt *metav1.Time, ttlSecondsAfterFinished *int32, now time.Time) (left time.Duration, expires bool) {
	if finishedAt == nil || ttlSecondsAfterFinished == nil {
		return 0, false
	}
	return finishedAt.Add(time.Duration(*ttlSecondsAfterFinished) * time.Second).Sub(now), true
}
