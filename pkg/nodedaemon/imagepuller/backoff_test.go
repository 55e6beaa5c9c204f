package imagepuller

import (
	"testing"
	"time"
)

func TestBackoffSchedule(t *testing.T) {
	b := Backoff{Initial: time.Second, Max: 10 * time.Second}
	// With r = 0 the schedule is the plain exponential, capped.
	want := []time.Duration{1, 2, 4, 8, 10, 10, 10}
	for i, w := range want {
		if got := b.delay(i+1, 0); got != w*time.Second {
			t.Errorf("delay(%d, 0) = %s, want %s", i+1, got, w*time.Second)
		}
	}
	// Jitter only shortens, by at most backoffJitter of the value.
	for i := range want {
		base := want[i] * time.Second
		for _, r := range []float64{0.25, 0.5, 0.999} {
			got := b.delay(i+1, r)
			low := base - time.Duration(float64(base)*backoffJitter)
			if got > base || got < low {
				t.Errorf("delay(%d, %v) = %s, want within [%s, %s]", i+1, r, got, low, base)
			}
		}
	}
	if a, c := b.delay(3, 0.1), b.delay(3, 0.9); a <= c {
		t.Errorf("a larger random draw should shorten the delay more: %s vs %s", a, c)
	}
	// Out-of-range draws are ignored rather than producing negative waits.
	if got := b.delay(1, 7); got != time.Second {
		t.Errorf("delay(1, 7) = %s, want 1s", got)
	}
	// Many failures do not overflow.
	if got := b.delay(1000, 0); got != 10*time.Second {
		t.Errorf("delay(1000, 0) = %s, want 10s", got)
	}
}

func TestBackoffDefaults(t *testing.T) {
	cases := []struct {
		in, want Backoff
	}{
		{Backoff{}, Backoff{Initial: DefaultBackoffInitial, Max: DefaultBackoffMax}},
		{Backoff{Initial: time.Minute}, Backoff{Initial: time.Minute, Max: time.Minute}},
		{Backoff{Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond}, Backoff{Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond}},
	}
	for _, tc := range cases {
		if got := tc.in.withDefaults(); got != tc.want {
			t.Errorf("%+v.withDefaults() = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}
