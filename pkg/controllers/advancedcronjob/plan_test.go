package advancedcronjob

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	testingclock "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

func mt(s string) *metav1.Time { return &metav1.Time{Time: at(s)} }

// run is a BroadcastJob run of "acj" for a start.
func run(scheduled string, o Outcome) Run {
	t := at(scheduled)
	name := RunName("acj", t)
	return Run{Ref: corev1.ObjectReference{APIVersion: "apps.kruise.io/v1beta1", Kind: "BroadcastJob", Namespace: "ns",
		Name: name, UID: types.UID("uid-" + name)}, Scheduled: t, Outcome: o}
}

func deleting(r Run) Run { r.Deleting = true; return r }

func names(runs []Run) string {
	var out []string
	for _, r := range runs {
		out = append(out, r.Scheduled.UTC().Format("15:04"))
	}
	return strings.Join(out, ",")
}

func refNames(refs []corev1.ObjectReference) string {
	var out []string
	for _, r := range refs {
		out = append(out, string(r.UID))
	}
	return strings.Join(out, ",")
}

// input is every minute in UTC, created at 10:00:30, Allow, limits 3 and 1.
func input(now string, mutate ...func(*Input)) Input {
	spec := &v1beta1.AdvancedCronJobSpec{
		Schedule: "*/1 * * * *", TimeZone: ptr.To("UTC"), ConcurrencyPolicy: v1beta1.AllowConcurrent,
		Paused: ptr.To(false), SuccessfulJobsHistoryLimit: ptr.To[int32](3), FailedJobsHistoryLimit: ptr.To[int32](1),
	}
	in := Input{Name: "acj", Created: at("2026-01-01T10:00:30Z"), Kind: v1beta1.BroadcastJobTemplate, Spec: spec, Now: at(now)}
	for _, m := range mutate {
		m(&in)
	}
	in.Schedule, in.ScheduleErr = ParseSchedule(in.Spec.Schedule, in.Spec.TimeZone)
	return in
}

func lastScheduled(s string) func(*Input) {
	return func(in *Input) { in.Status.LastScheduleTime = mt(s) }
}

func runs(r ...Run) func(*Input) { return func(in *Input) { in.Runs = r } }

func TestCompute(t *testing.T) {
	type want struct {
		start        string // RFC3339 of the start run now, "" none
		last         string // lastScheduleTime, "" nil
		active       string // UIDs in status.active
		replace      string // starts (15:04) of replaced runs
		prune        string // starts (15:04) of pruned runs
		skip         SkipReason
		tooMany      bool
		scheduleErr  bool
		requeueAfter time.Duration
	}
	tests := []struct {
		name string
		in   Input
		want want
	}{
		{"not due yet: wait for the first start", input("2026-01-01T10:00:50Z"),
			want{requeueAfter: 10*time.Second + nextStartDelta}},
		{"due: start it, named by its Unix time", input("2026-01-01T10:01:00.5Z"),
			want{start: "2026-01-01T10:01:00Z", last: "2026-01-01T10:01:00Z", requeueAfter: 59500*time.Millisecond + nextStartDelta}},
		{"already started (lastScheduleTime)", input("2026-01-01T10:01:30Z", lastScheduled("2026-01-01T10:01:00Z")),
			want{last: "2026-01-01T10:01:00Z", requeueAfter: 30*time.Second + nextStartDelta}},
		{"already started, its status write lost: only lastScheduleTime moves",
			input("2026-01-01T10:01:30Z", runs(run("2026-01-01T10:01:00Z", Running))),
			want{last: "2026-01-01T10:01:00Z", active: "uid-acj-1767261660", requeueAfter: 30*time.Second + nextStartDelta}},
		{"several starts missed: only the latest runs",
			input("2026-01-01T10:05:10Z", lastScheduled("2026-01-01T10:01:00Z")),
			want{start: "2026-01-01T10:05:00Z", last: "2026-01-01T10:05:00Z", requeueAfter: 50*time.Second + nextStartDelta}},
		{"more than 100 missed: said, and the latest runs",
			input("2026-01-01T13:00:10Z", lastScheduled("2026-01-01T10:01:00Z")),
			want{start: "2026-01-01T13:00:00Z", last: "2026-01-01T13:00:00Z", tooMany: true, requeueAfter: 50*time.Second + nextStartDelta}},
		{"more than 100 missed, the latest too late: missed, and said once at the next start only",
			input("2026-01-01T13:00:40Z", lastScheduled("2026-01-01T10:01:00Z"), func(in *Input) { in.Spec.StartingDeadlineSeconds = ptr.To[int64](30) }),
			want{last: "2026-01-01T10:01:00Z", skip: SkipDeadline, requeueAfter: 20*time.Second + nextStartDelta}},
		{"late but within startingDeadlineSeconds: runs",
			input("2026-01-01T10:05:20Z", lastScheduled("2026-01-01T10:04:00Z"), func(in *Input) { in.Spec.StartingDeadlineSeconds = ptr.To[int64](30) }),
			want{start: "2026-01-01T10:05:00Z", last: "2026-01-01T10:05:00Z", requeueAfter: 40*time.Second + nextStartDelta}},
		{"later than startingDeadlineSeconds: missed, lastScheduleTime stays",
			input("2026-01-01T10:05:40Z", lastScheduled("2026-01-01T10:04:00Z"), func(in *Input) { in.Spec.StartingDeadlineSeconds = ptr.To[int64](30) }),
			want{last: "2026-01-01T10:04:00Z", skip: SkipDeadline, requeueAfter: 20*time.Second + nextStartDelta}},
		{"Allow: runs beside the active one",
			input("2026-01-01T10:02:00Z", lastScheduled("2026-01-01T10:01:00Z"), runs(run("2026-01-01T10:01:00Z", Running))),
			want{start: "2026-01-01T10:02:00Z", last: "2026-01-01T10:02:00Z", active: "uid-acj-1767261660", requeueAfter: time.Minute + nextStartDelta}},
		{"Forbid: skipped while a run is active",
			input("2026-01-01T10:02:00Z", lastScheduled("2026-01-01T10:01:00Z"), runs(run("2026-01-01T10:01:00Z", Running)),
				func(in *Input) { in.Spec.ConcurrencyPolicy = v1beta1.ForbidConcurrent }),
			want{last: "2026-01-01T10:01:00Z", active: "uid-acj-1767261660", skip: SkipForbid, requeueAfter: time.Minute + nextStartDelta}},
		{"Forbid: finished runs do not count",
			input("2026-01-01T10:02:00Z", lastScheduled("2026-01-01T10:01:00Z"), runs(run("2026-01-01T10:01:00Z", Failed)),
				func(in *Input) { in.Spec.ConcurrencyPolicy = v1beta1.ForbidConcurrent }),
			want{start: "2026-01-01T10:02:00Z", last: "2026-01-01T10:02:00Z", requeueAfter: time.Minute + nextStartDelta}},
		{"Replace: the active runs are deleted first",
			input("2026-01-01T10:03:00Z", lastScheduled("2026-01-01T10:02:00Z"),
				runs(run("2026-01-01T10:02:00Z", Running), run("2026-01-01T10:01:00Z", Running), run("2026-01-01T10:00:00Z", Succeeded)),
				func(in *Input) { in.Spec.ConcurrencyPolicy = v1beta1.ReplaceConcurrent }),
			want{start: "2026-01-01T10:03:00Z", last: "2026-01-01T10:03:00Z", replace: "10:01,10:02", requeueAfter: time.Minute + nextStartDelta}},
		{"Replace with nothing active: just runs",
			input("2026-01-01T10:03:00Z", lastScheduled("2026-01-01T10:02:00Z"), runs(run("2026-01-01T10:02:00Z", Succeeded)),
				func(in *Input) { in.Spec.ConcurrencyPolicy = v1beta1.ReplaceConcurrent }),
			want{start: "2026-01-01T10:03:00Z", last: "2026-01-01T10:03:00Z", requeueAfter: time.Minute + nextStartDelta}},
		{"paused: nothing starts, nothing is requeued, history is still kept",
			input("2026-01-01T10:07:00Z", lastScheduled("2026-01-01T10:01:00Z"), func(in *Input) { in.Spec.Paused = ptr.To(true) },
				runs(run("2026-01-01T10:01:00Z", Failed), run("2026-01-01T10:00:00Z", Failed))),
			want{last: "2026-01-01T10:01:00Z", prune: "10:00"}},
		{"being deleted: nothing starts",
			input("2026-01-01T10:07:00Z", lastScheduled("2026-01-01T10:01:00Z"), func(in *Input) { in.Stop = true }),
			want{last: "2026-01-01T10:01:00Z"}},
		{"history: the oldest finished runs beyond each limit go; deleting runs count for none",
			input("2026-01-01T10:07:30Z", lastScheduled("2026-01-01T10:07:00Z"), runs(
				run("2026-01-01T10:07:00Z", Running),
				run("2026-01-01T10:06:00Z", Succeeded), run("2026-01-01T10:04:00Z", Succeeded),
				run("2026-01-01T10:05:00Z", Succeeded), run("2026-01-01T10:01:00Z", Succeeded),
				run("2026-01-01T10:02:00Z", Failed), run("2026-01-01T10:03:00Z", Failed), run("2026-01-01T10:00:00Z", Failed),
				deleting(run("2026-01-01T09:59:00Z", Succeeded)))),
			want{last: "2026-01-01T10:07:00Z", active: "uid-acj-1767261PADDING", prune: "10:00,10:02,10:01", requeueAfter: 30*time.Second + nextStartDelta}},
		{"history: unset limits keep everything",
			input("2026-01-01T10:03:30Z", lastScheduled("2026-01-01T10:03:00Z"), runs(
				run("2026-01-01T10:01:00Z", Succeeded), run("2026-01-01T10:02:00Z", Failed), run("2026-01-01T10:03:00Z", Failed)),
				func(in *Input) { in.Spec.SuccessfulJobsHistoryLimit, in.Spec.FailedJobsHistoryLimit = nil, nil }),
			want{last: "2026-01-01T10:03:00Z", requeueAfter: 30*time.Second + nextStartDelta}},
		{"history: limit 0 keeps none",
			input("2026-01-01T10:03:30Z", lastScheduled("2026-01-01T10:03:00Z"), runs(run("2026-01-01T10:03:00Z", Succeeded)),
				func(in *Input) { in.Spec.SuccessfulJobsHistoryLimit = ptr.To[int32](0) }),
			want{last: "2026-01-01T10:03:00Z", prune: "10:03", requeueAfter: 30*time.Second + nextStartDelta}},
		{"time zone: 09:00 in Shanghai is 01:00 UTC",
			input("2026-01-02T01:00:01Z", func(in *Input) {
				in.Spec.Schedule, in.Spec.TimeZone = "0 9 * * *", ptr.To("Asia/Shanghai")
			}),
			want{start: "2026-01-02T01:00:00Z", last: "2026-01-02T01:00:00Z", requeueAfter: 24*time.Hour - time.Second + nextStartDelta}},
		{"time zone: the same schedule in UTC is not due then",
			input("2026-01-02T01:00:01Z", func(in *Input) { in.Spec.Schedule = "0 9 * * *" }),
			want{requeueAfter: 8*time.Hour - time.Second + nextStartDelta}},
		{"DST spring forward: 02:30 Berlin does not exist on 29 March, that day has no start",
			input("2026-03-29T12:00:00Z", lastScheduled("2026-03-28T01:30:00Z"), func(in *Input) {
				in.Spec.Schedule, in.Spec.TimeZone = "30 2 * * *", ptr.To("Europe/Berlin")
			}),
			// next: 30 March 02:30 CEST = 00:30 UTC
			want{last: "2026-03-28T01:30:00Z", requeueAfter: 12*time.Hour + 30*time.Minute + nextStartDelta}},
		{"DST fall back: 02:30 Berlin happens twice on 25 October, the second (CET) starts too",
			input("2026-10-25T01:30:01Z", lastScheduled("2026-10-25T00:30:00Z"), func(in *Input) {
				in.Spec.Schedule, in.Spec.TimeZone = "30 2 * * *", ptr.To("Europe/Berlin")
			}),
			want{start: "2026-10-25T01:30:00Z", last: "2026-10-25T01:30:00Z", requeueAfter: 24*time.Hour - time.Second + nextStartDelta}},
		{"@every: constant delay from creation",
			input("2026-01-01T10:00:51Z", func(in *Input) { in.Spec.Schedule = "@every 20s" }),
			want{start: "2026-01-01T10:00:50Z", last: "2026-01-01T10:00:50Z", requeueAfter: 20*time.Second + nextStartDelta}},
		{"a schedule that never fires: said, nothing starts",
			input("2026-01-01T10:05:00Z", func(in *Input) { in.Spec.Schedule = "0 0 30 2 *" }),
			want{scheduleErr: true}},
		{"an unknown zone: said, nothing starts",
			input("2026-01-01T10:05:00Z", func(in *Input) { in.Spec.TimeZone = ptr.To("Mars/Olympus_Mons") }),
			want{scheduleErr: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want.active == "uid-acj-1767261PADDING" {
				tt.want.active = string(run("2026-01-01T10:07:00Z", Running).Ref.UID)
			}
			p := Compute(tt.in)
			var start, last string
			if p.Start != nil {
				start = p.Start.UTC().Format(time.RFC3339)
				if want := RunName("acj", *p.Start); p.StartName != want {
					t.Errorf("start name %q, want %q", p.StartName, want)
				}
			}
			if p.Status.LastScheduleTime != nil {
				last = p.Status.LastScheduleTime.UTC().Format(time.RFC3339)
			}
			var skip SkipReason
			if p.Skipped != nil {
				skip = p.Skipped.Reason
			}
			got := want{start: start, last: last, active: refNames(p.Status.Active), replace: names(p.Replace), prune: names(p.Prune),
				skip: skip, tooMany: p.TooManyMissed, scheduleErr: p.ScheduleErr != nil, requeueAfter: p.RequeueAfter}
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if p.Status.Type != v1beta1.BroadcastJobTemplate {
				t.Errorf("status type %q", p.Status.Type)
			}
		})
	}
}

func TestRunName(t *testing.T) {
	if got := RunName("acj-test", at("2026-01-01T10:01:00Z")); got != "acj-test-1767261660" {
		t.Errorf("RunName = %q", got)
	}
}

// The stored active list against the runs: one ended, one vanished.
func TestComputeSeesFinishedAndMissing(t *testing.T) {
	ended, gone, going := run("2026-01-01T10:01:00Z", Succeeded), run("2026-01-01T10:02:00Z", Running), run("2026-01-01T10:03:00Z", Running)
	in := input("2026-01-01T10:03:30Z", lastScheduled("2026-01-01T10:03:00Z"), runs(ended, going))
	in.Status.Active = []corev1.ObjectReference{ended.Ref, gone.Ref, going.Ref}
	p := Compute(in)
	if names(p.Finished) != "10:01" || refNames(p.Missing) != string(gone.Ref.UID) || refNames(p.Status.Active) != string(going.Ref.UID) {
		t.Errorf("finished %s, missing %s, active %s", names(p.Finished), refNames(p.Missing), refNames(p.Status.Active))
	}
}

// A minute-by-minute life under Forbid against a fake clock, the plan carried out as
// the controller does: the second start is skipped while the first runs, and starts
// late when it ends (the start stays due, as with kube's CronJob); with
// startingDeadlineSeconds it is missed instead.
func TestForbidOverTime(t *testing.T) {
	for _, deadline := range []*int64{nil, ptr.To[int64](20)} {
		t.Run(fmt.Sprintf("deadline %v", ptr.Deref(deadline, -1)), func(t *testing.T) {
			clk := testingclock.NewFakeClock(at("2026-01-01T10:00:40Z"))
			in := input("2026-01-01T10:00:40Z", func(in *Input) {
				in.Spec.ConcurrencyPolicy = v1beta1.ForbidConcurrent
				in.Spec.StartingDeadlineSeconds = deadline
			})
			sync := func() Plan {
				in.Now = clk.Now()
				p := Compute(in)
				in.Status = p.Status
				if p.Start != nil {
					r := run(p.Start.Format(time.RFC3339), Running)
					in.Runs = append(in.Runs, r)
					in.Status.Active = append(in.Status.Active, r.Ref)
				}
				return p
			}
			p := sync()
			if p.Start != nil || p.RequeueAfter != 20*time.Second+nextStartDelta {
				t.Fatalf("10:00:40: %+v", p)
			}
			clk.Step(p.RequeueAfter)
			if p = sync(); p.Start == nil || !p.Start.Equal(at("2026-01-01T10:01:00Z")) {
				t.Fatalf("10:01: no start: %+v", p)
			}
			clk.Step(p.RequeueAfter)
			if p = sync(); p.Start != nil || p.Skipped == nil || p.Skipped.Reason != SkipForbid {
				t.Fatalf("10:02 with the 10:01 run active: %+v", p)
			}
			clk.Step(30 * time.Second) // the 10:01 run ends at 10:02:30
			in.Runs[0].Outcome = Succeeded
			p = sync()
			if deadline == nil {
				if p.Start == nil || !p.Start.Equal(at("2026-01-01T10:02:00Z")) || len(p.Finished) != 1 {
					t.Fatalf("10:02:30, the first run ended: want the 10:02 start late, got %+v", p)
				}
				return
			}
			if p.Start != nil || p.Skipped == nil || p.Skipped.Reason != SkipDeadline {
				t.Fatalf("10:02:30, the first run ended, past the deadline: want missed, got %+v", p)
			}
		})
	}
}

func TestParseSchedule(t *testing.T) {
	if _, err := ParseSchedule("*/1 * * * *", ptr.To("Nowhere/Else")); !errors.Is(err, errUnknownTimeZone) {
		t.Errorf("unknown zone: %v", err)
	}
	if _, err := ParseSchedule("every minute", nil); err == nil {
		t.Error("bad expression parsed")
	}
	// a stored TZ= prefix carries its zone (here Shanghai, not the UTC of timeZone's absence)
	s, err := ParseSchedule("TZ=Asia/Shanghai 0 9 * * *", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Next(at("2026-01-01T00:00:00Z")); !got.Equal(at("2026-01-01T01:00:00Z")) {
		t.Errorf("TZ= prefix: next %s", got)
	}
}

func TestMissedStarts(t *testing.T) {
	sparse, err := ParseSchedule("* * 1 * *", ptr.To("UTC")) // every minute of the 1st
	if err != nil {
		t.Fatal(err)
	}
	m, err := MissedStarts(sparse, at("2020-01-01T00:00:00Z"), at("2026-01-15T00:00:00Z"))
	if err != nil || !m.TooMany || !m.Latest.Equal(at("2026-01-01T23:59:00Z")) {
		t.Errorf("years behind a sparse schedule: %+v, %v", m, err)
	}
	m, err = MissedStarts(sparse, at("2026-01-01T10:00:00Z"), at("2026-01-01T10:00:30Z"))
	if err != nil || m.TooMany || !m.Latest.IsZero() {
		t.Errorf("none due: %+v, %v", m, err)
	}
	m, err = MissedStarts(sparse, at("2026-01-01T10:00:00Z"), at("2026-01-01T10:03:00Z"))
	if err != nil || m.TooMany || !m.Latest.Equal(at("2026-01-01T10:03:00Z")) {
		t.Errorf("three due: %+v, %v", m, err)
	}
}
