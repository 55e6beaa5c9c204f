package advancedcronjob

import (
	"fmt"
	"sort"
	"time"

	"github.com/robfig/cron/v3"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// Outcome is how a run ended; "" while it runs.
type Outcome string

const (
	Running   Outcome = ""
	Succeeded Outcome = "Complete"
	Failed    Outcome = "Failed"
)

// Run is one run (child) the AdvancedCronJob controls, as the plan needs it.
type Run struct {
	Ref corev1.ObjectReference
	// Scheduled is the start it was created for (its scheduled-at annotation, else its
	// creation time).
	Scheduled time.Time
	Outcome   Outcome
	// Deleting: it has a deletion timestamp; it is neither active nor history.
	Deleting bool
}

// Input is what Compute decides on.
type Input struct {
	Name    string // the AdvancedCronJob's, which the runs' names start with
	Created time.Time
	Kind    v1beta1.TemplateKind
	Spec    *v1beta1.AdvancedCronJobSpec
	Status  v1beta1.AdvancedCronJobStatus
	// Schedule is the parsed schedule in its zone; ScheduleErr when it does not parse.
	Schedule    cron.Schedule
	ScheduleErr error
	// Stop starts nothing without saying why (the AdvancedCronJob is being deleted).
	Stop bool
	Runs []Run
	Now  time.Time
}

// SkipReason says why a due start was not run.
type SkipReason string

const (
	// SkipForbid: a run is active and concurrencyPolicy is Forbid.
	SkipForbid SkipReason = "Forbid"
	// SkipDeadline: the start is later than startingDeadlineSeconds allows.
	SkipDeadline SkipReason = "Deadline"
)

// Skip is a due start that was not run.
type Skip struct {
	Reason SkipReason
	Time   time.Time
}

// Plan is what one sync does.
type Plan struct {
	// Status is the new status, before the run started now (the controller adds its
	// reference once it exists).
	Status v1beta1.AdvancedCronJobStatus
	// Start is the scheduled time to create a run for now, named StartName.
	Start     *time.Time
	StartName string
	// Replace are the active runs to delete before starting (concurrencyPolicy Replace).
	Replace []Run
	// Prune are finished runs beyond the history limits, oldest first.
	Prune []Run
	// Skipped is a due start that was not run; TooManyMissed says that more than
	// maxMissed starts were due when Start was (only the latest runs).
	Skipped       *Skip
	TooManyMissed bool
	// ScheduleErr: no start can be computed (a schedule that does not parse or never fires).
	ScheduleErr error
	// Finished are runs listed active in the stored status that have ended; Missing are
	// references in it to runs that no longer exist.
	Finished []Run
	Missing  []corev1.ObjectReference
	// RequeueAfter is when the next start is due (0: none will be; an update of the
	// AdvancedCronJob or of a run triggers the next sync).
	RequeueAfter time.Duration
}

// nextStartDelta pads the requeue so that the sync lands after the start, not a hair
// before it (clocks of the queue and of the schedule differ by rounding).
const nextStartDelta = 100 * time.Millisecond

// RunName is the name of the run for a scheduled time: the AdvancedCronJob's name and
// the Unix time of the start, as OpenKruise names them. The name is the lock against
// starting a time twice: a second create fails with AlreadyExists.
func RunName(acj string, scheduled time.Time) string {
	return fmt.Sprintf("%s-%d", acj, scheduled.Unix())
}

// Compute decides one sync of an AdvancedCronJob, as kube's CronJob controller does:
//   - Status: type is the template's kind; active lists the runs that have not ended,
//     oldest first; lastScheduleTime is the last start run.
//   - History: finished runs beyond successfulJobsHistoryLimit / failedJobsHistoryLimit
//     (unset: keep all) are deleted, oldest first. This happens while paused too.
//   - Starts: none while paused or stopping. Otherwise the latest start due since
//     lastScheduleTime (or creation) is considered; older missed ones are dropped, and
//     more than maxMissed of them is reported. A start later than
//     startingDeadlineSeconds is skipped (missed). One already run (a run of its name
//     exists) only moves lastScheduleTime. Forbid skips it while a run is active and
//     keeps it due, so it starts when the active run ends if the deadline still allows;
//     Replace deletes the active runs first; Allow runs beside them.
//   - Requeue: at the next start after now.
func Compute(in Input) Plan {
	p := Plan{Status: v1beta1.AdvancedCronJobStatus{Type: in.Kind, LastScheduleTime: in.Status.LastScheduleTime}}
	active, succeeded, failed := classify(in.Runs)
	p.Status.Active = refs(active)
	p.Finished, p.Missing = seen(in.Status.Active, in.Runs)
	p.Prune = append(oldest(failed, in.Spec.FailedJobsHistoryLimit), oldest(succeeded, in.Spec.SuccessfulJobsHistoryLimit)...)

	if in.ScheduleErr != nil {
		p.ScheduleErr = in.ScheduleErr
		return p
	}
	if in.Stop || ptr.Deref(in.Spec.Paused, false) {
		return p // resuming is an update, which syncs
	}
	if next := in.Schedule.Next(in.Now); !next.IsZero() {
		p.RequeueAfter = next.Sub(in.Now) + nextStartDelta
	}

	after := in.Created
	if last := in.Status.LastScheduleTime; last != nil {
		after = last.Time
	}
	missed, err := MissedStarts(in.Schedule, after, in.Now)
	if err != nil {
		p.ScheduleErr = err
		return p
	}
	due := missed.Latest
	if due.IsZero() {
		return p
	}
	if d := in.Spec.StartingDeadlineSeconds; d != nil && due.Add(time.Duration(*d)*time.Second).Before(in.Now) {
		p.Skipped = &Skip{Reason: SkipDeadline, Time: due}
		return p
	}
	name := RunName(in.Name, due)
	for _, r := range in.Runs {
		if r.Ref.Name == name { // started, but the status write after it was lost
			p.Status.LastScheduleTime = &metav1.Time{Time: due}
			return p
		}
	}
	switch in.Spec.ConcurrencyPolicy {
	case v1beta1.ForbidConcurrent:
		if len(active) > 0 {
			p.Skipped = &Skip{Reason: SkipForbid, Time: due}
			return p
		}
	case v1beta1.ReplaceConcurrent:
		p.Replace = active
		p.Status.Active = nil
	}
	p.Start, p.StartName = &due, name
	// said when starting only: a start moves lastScheduleTime, so it is said once
	p.TooManyMissed = missed.TooMany
	p.Status.LastScheduleTime = &metav1.Time{Time: due}
	return p
}

// classify splits runs not being deleted by outcome, each oldest first.
func classify(runs []Run) (active, succeeded, failed []Run) {
	sorted := append([]Run(nil), runs...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if !sorted[i].Scheduled.Equal(sorted[j].Scheduled) {
			return sorted[i].Scheduled.Before(sorted[j].Scheduled)
		}
		return sorted[i].Ref.Name < sorted[j].Ref.Name
	})
	for _, r := range sorted {
		switch {
		case r.Deleting:
		case r.Outcome == Succeeded:
			succeeded = append(succeeded, r)
		case r.Outcome == Failed:
			failed = append(failed, r)
		default:
			active = append(active, r)
		}
	}
	return active, succeeded, failed
}

func refs(runs []Run) []corev1.ObjectReference {
	var out []corev1.ObjectReference
	for _, r := range runs {
		out = append(out, r.Ref)
	}
	return out
}

// oldest are the runs beyond limit (nil: no limit), oldest first.
func oldest(runs []Run, limit *int32) []Run {
	if limit == nil || len(runs) <= int(*limit) {
		return nil
	}
	return runs[:len(runs)-int(*limit)]
}

// seen compares the stored active list with the runs: those listed that have ended,
// and references to runs that are gone.
func seen(stored []corev1.ObjectReference, runs []Run) (finished []Run, missing []corev1.ObjectReference) {
	byUID := map[string]Run{}
	for _, r := range runs {
		byUID[string(r.Ref.UID)] = r
	}
	for _, ref := range stored {
		r, ok := byUID[string(ref.UID)]
		switch {
		case !ok:
			missing = append(missing, ref)
		case r.Outcome != Running:
			finished = append(finished, r)
		}
	}
	return finished, missing
}
