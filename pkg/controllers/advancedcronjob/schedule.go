package advancedcronjob

import (
	"errors"
	"fmt"
	"strings"
	"time"
	// The zone database is compiled in: which instant "09:00 Asia/Shanghai" is must not
	// depend on the tzdata of the image the controller runs in.
	_ "time/tzdata"

	"github.com/robfig/cron/v3"
)

// ParseSchedule reads a schedule in its zone: timeZone when set, else the
// controller's own zone (time.Local), as kube's CronJob does. A schedule stored with a
// TZ= or CRON_TZ= prefix (refused on create, kept on update) carries its own zone. The
// parser's panics on odd input become errors.
func ParseSchedule(schedule string, timeZone *string) (s cron.Schedule, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("unparsable schedule %q: %v", schedule, r)
		}
	}()
	s, err = cron.ParseStandard(schedule)
	if err != nil {
		return nil, fmt.Errorf("unparsable schedule %q: %w", schedule, err)
	}
	if strings.Contains(schedule, "TZ") {
		return s, nil
	}
	loc := time.Local
	if timeZone != nil {
		if loc, err = time.LoadLocation(*timeZone); err != nil {
			return nil, fmt.Errorf("%w %q: %w", errUnknownTimeZone, *timeZone, err)
		}
	}
	if spec, ok := s.(*cron.SpecSchedule); ok {
		spec.Location = loc // "@every" (ConstantDelaySchedule) has no zone
	}
	return s, nil
}

var errUnknownTimeZone = errors.New("unknown time zone")

// maxMissed is how many missed starts are counted before the controller says so: more
// than this means a long outage or a clock that jumped, as in kube's CronJob.
const maxMissed = 100

// Missed are the starts of a schedule due in (after, now].
type Missed struct {
	// Latest is the most recent start due (zero: none is due).
	Latest time.Time
	// TooMany: more than maxMissed were due; only Latest is known.
	TooMany bool
}

// MissedStarts finds the starts of s due after after and no later than now. It counts
// at most maxMissed of them forward, then finds the latest by stepping back from now,
// so a schedule years behind costs no more than one that is minutes behind.
func MissedStarts(s cron.Schedule, after, now time.Time) (Missed, error) {
	var m Missed
	t := after
	for range maxMissed + 1 {
		next := s.Next(t)
		if next.IsZero() {
			if t.Equal(after) { // never, not merely not again
				return m, fmt.Errorf("the schedule never fires after %s", after.UTC().Format(time.RFC3339))
			}
			return m, nil
		}
		if next.After(now) {
			return m, nil
		}
		m.Latest, t = next, next
	}
	m.TooMany = true
	m.Latest = latestStart(s, m.Latest, now)
	return m, nil
}

// latestStart is the last start of s no later than now, knowing that from is one.
// It widens a window back from now until a start falls in it, then walks that window
// forward: the window holds at most the starts of twice the final gap.
func latestStart(s cron.Schedule, from, now time.Time) time.Time {
	for step := time.Minute; ; step *= 2 {
		probe := now.Add(-step)
		if !probe.After(from) {
			probe = from
		}
		if next := s.Next(probe); !next.IsZero() && !next.After(now) {
			latest := next
			for t := s.Next(next); !t.IsZero() && !t.After(now); t = s.Next(t) {
				latest = t
			}
			return latest
		}
		if probe.Equal(from) {
			return from
		}
	}
}

// Location is the zone a spec's times are written in (the scheduled-at annotation):
// timeZone, else the controller's own. The schedule's Next answers in the zone of the
// time it is given, so times are put in this zone to be shown.
func Location(timeZone *string) *time.Location {
	if timeZone != nil {
		if loc, err := time.LoadLocation(*timeZone); err == nil {
			return loc
		}
	}
	return time.Local
}
