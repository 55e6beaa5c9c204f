package framework

import (
	"maps"
	"testing"
	"time"
)

// QuietControllerWrites waits until kruise-controller's write counts (ControllerWrites)
// have not moved for quiet and returns them: the writes that follow the condition a
// test waited for (the last status write of a sync) are counted in the phase they
// belong to.
func (c *Cluster) QuietControllerWrites(t testing.TB, quiet time.Duration) map[string]float64 {
	t.Helper()
	var last map[string]float64
	var since time.Time
	WaitFor(t, time.Minute, func() (bool, error) {
		now := c.ControllerWrites(t)
		if !maps.Equal(now, last) {
			last, since = now, time.Now()
			return false, nil
		}
		return time.Since(since) >= quiet, nil
	})
	return last
}

// WritesPerPod is the writes between two ControllerWrites readings divided by pods,
// with the change of each "resource verb" count; keepUnchanged keeps the counts that
// did not move in that detail (they add nothing to the total).
func WritesPerPod(before, after map[string]float64, pods int, keepUnchanged bool) (float64, map[string]float64) {
	delta := map[string]float64{}
	total := 0.0
	for m, v := range after {
		d := v - before[m]
		if d != 0 || keepUnchanged {
			delta[m] = d
			total += d
		}
	}
	return total / float64(pods), delta
}
