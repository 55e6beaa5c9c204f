package imagepuller

import "time"

const (
	// DefaultBackoffInitial and DefaultBackoffMax bound the wait between
	// attempts when Options.Backoff leaves them zero: OpenKruise's daemon
	// starts at one second and doubles up to thirty.
	DefaultBackoffInitial = time.Second
	DefaultBackoffMax     = 30 * time.Second

	// backoffJitter is the fraction of each delay drawn at random. Every
	// node of a cluster pulls the same image at the same moment when an
	// ImagePullJob starts; without jitter their retries hit the registry in
	// lockstep too.
	backoffJitter = 0.2
)

// Backoff is the jittered exponential wait between two attempts of a task.
type Backoff struct {
	// Initial is the wait after the first failed attempt; it doubles after
	// each further failure.
	Initial time.Duration
	// Max caps the wait.
	Max time.Duration
}

func (b Backoff) withDefaults() Backoff {
	if b.Initial <= 0 {
		b.Initial = DefaultBackoffInitial
	}
	if b.Max <= 0 {
		b.Max = DefaultBackoffMax
	}
	if b.Max < b.Initial {
		b.Max = b.Initial
	}
	return b
}

// delay is the wait after failed attempt number failures (1-based), given a
// random r in [0, 1). Jitter only shortens the exponential value, so a delay
// is never longer than Max and a test that advances a clock by the
// un-jittered value always reaches the next attempt.
func (b Backoff) delay(failures int, r float64) time.Duration {
	d := b.Initial
	for i := 1; i < failures && d < b.Max; i++ {
		d *= 2
	}
	if d > b.Max {
		d = b.Max
	}
	if r < 0 || r >= 1 {
		r = 0
	}
	return d - time.Duration(float64(d)*backoffJitter*r)
}
