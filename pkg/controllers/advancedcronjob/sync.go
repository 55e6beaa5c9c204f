package advancedcronjob

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// sync reconciles one AdvancedCronJob and returns when its next start is due.
func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, nil
	}
	acj, err := c.cronJobs.AdvancedCronJobs(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil // the garbage collector deletes its runs
	}
	if err != nil {
		return 0, err
	}
	if !c.status.Current(ctx, acj) {
		// The cache has not seen our last status write yet: acting on it would start or
		// replace again what that write recorded. Its update event queues the key.
		return time.Second, nil
	}
	logger := klog.FromContext(ctx).WithValues("advancedCronJob", klog.KObj(acj))
	ctx = klog.NewContext(ctx, logger)
	kind := templateKind(&acj.Spec)
	runs, ok := c.kinds[kind]
	if !ok {
		return 0, nil // no template: validation refuses it
	}
	listed, err := runs.list(acj)
	if err != nil {
		return 0, err
	}
	if listed, err = c.withUnseenActive(ctx, acj, listed); err != nil {
		return 0, err
	}
	schedule, scheduleErr := ParseSchedule(acj.Spec.Schedule, acj.Spec.TimeZone)
	plan := Compute(Input{
		Name: acj.Name, Created: acj.CreationTimestamp.Time, Kind: kind,
		Spec: &acj.Spec, Status: acj.Status,
		Schedule: schedule, ScheduleErr: scheduleErr,
		Stop: acj.DeletionTimestamp != nil,
		Runs: listed, Now: c.clock.Now(),
	})
	c.recordObservations(acj, plan)

	var syncErr error
	for _, r := range plan.Prune {
		syncErr = errors.Join(syncErr, c.deleteRun(ctx, acj, r, historyReason(acj, r)))
	}
	status := plan.Status
	if plan.Start != nil {
		if err := c.start(ctx, acj, runs, plan, &status); err != nil {
			status.LastScheduleTime = acj.Status.LastScheduleTime // due again on retry
			syncErr = errors.Join(syncErr, err)
		}
	}
	if err := c.updateStatus(ctx, acj, status); err != nil {
		return 0, errors.Join(syncErr, err)
	}
	return plan.RequeueAfter, syncErr
}

// start deletes the runs a Replace replaces, then creates the run of the due start
// and lists it active.
func (c *Controller) start(ctx context.Context, acj *v1beta1.AdvancedCronJob, runs runKind, plan Plan, status *v1beta1.AdvancedCronJobStatus) error {
	for _, r := range plan.Replace {
		if err := c.deleteRun(ctx, acj, r, fmt.Sprintf("replaced by the run of %s (concurrencyPolicy Replace)", formatTime(*plan.Start))); err != nil {
			status.Active = append(status.Active, r.Ref) // still there
			return fmt.Errorf("replacing: %w", err)
		}
	}
	run, created, err := runs.create(ctx, acj, plan.StartName, *plan.Start)
	if err != nil {
		c.recorder.Eventf(acj, corev1.EventTypeWarning, "FailedCreate", "Error creating %s %s: %v", plan.Status.Type, plan.StartName, err)
		return err
	}
	if created { // else an earlier sync created it and said so
		klog.FromContext(ctx).V(2).Info("Started a run", "run", plan.StartName, "scheduled", *plan.Start)
		c.recorder.Eventf(acj, corev1.EventTypeNormal, "SuccessfulCreate", "Created %s %s for %s", run.Ref.Kind, run.Ref.Name, formatTime(*plan.Start))
	}
	status.Active = append(status.Active, run.Ref)
	return nil
}

// deleteRun deletes a run and records why.
func (c *Controller) deleteRun(ctx context.Context, acj *v1beta1.AdvancedCronJob, r Run, why string) error {
	deleted, err := c.kinds[v1beta1.TemplateKind(r.Ref.Kind)].delete(ctx, r)
	if err != nil {
		c.recorder.Eventf(acj, corev1.EventTypeWarning, "FailedDelete", "Error deleting %s %s: %v", r.Ref.Kind, r.Ref.Name, err)
		return err
	}
	if deleted {
		c.recorder.Eventf(acj, corev1.EventTypeNormal, "SuccessfulDelete", "Deleted %s %s: %s", r.Ref.Kind, r.Ref.Name, why)
	}
	return nil
}

// historyReason says which history limit a pruned run is beyond.
func historyReason(acj *v1beta1.AdvancedCronJob, r Run) string {
	if r.Outcome == Failed {
		return fmt.Sprintf("beyond failedJobsHistoryLimit %d", *acj.Spec.FailedJobsHistoryLimit)
	}
	return fmt.Sprintf("beyond successfulJobsHistoryLimit %d", *acj.Spec.SuccessfulJobsHistoryLimit)
}

// withUnseenActive adds to the listed runs those the stored status lists active but
// the cache has not seen yet (just created), read from the server: only a run the
// server no longer has is missing.
func (c *Controller) withUnseenActive(ctx context.Context, acj *v1beta1.AdvancedCronJob, listed []Run) ([]Run, error) {
	known := map[string]bool{}
	for _, r := range listed {
		known[string(r.Ref.UID)] = true
	}
	for _, ref := range acj.Status.Active {
		rk, ok := c.kinds[v1beta1.TemplateKind(ref.Kind)]
		if known[string(ref.UID)] || !ok {
			continue
		}
		r, err := rk.get(ctx, ref.Namespace, ref.Name)
		if err != nil {
			return nil, err
		}
		if r != nil && r.Ref.UID == ref.UID {
			listed = append(listed, *r)
		}
	}
	return listed, nil
}

// recordObservations records what the plan saw and decided not to do.
func (c *Controller) recordObservations(acj *v1beta1.AdvancedCronJob, p Plan) {
	for _, r := range p.Finished {
		c.recorder.Eventf(acj, corev1.EventTypeNormal, "SawCompletedJob", "Saw completed %s %s, condition: %s", r.Ref.Kind, r.Ref.Name, r.Outcome)
	}
	for _, ref := range p.Missing {
		c.recorder.Eventf(acj, corev1.EventTypeNormal, "MissingJob", "Active %s went missing: %s", ref.Kind, ref.Name)
	}
	if err := p.ScheduleErr; err != nil {
		reason := "InvalidSchedule"
		if errors.Is(err, errUnknownTimeZone) {
			reason = "UnknownTimeZone"
		}
		c.recorder.Eventf(acj, corev1.EventTypeWarning, reason, "Not starting runs: %v", err)
	}
	if p.TooManyMissed {
		c.recorder.Eventf(acj, corev1.EventTypeWarning, "TooManyMissedTimes",
			"More than %d start times were missed; only the latest is considered. Set or decrease .spec.startingDeadlineSeconds or check clock skew", maxMissed)
	}
	if s := p.Skipped; s != nil {
		switch s.Reason {
		case SkipForbid:
			c.recorder.Eventf(acj, corev1.EventTypeNormal, "JobAlreadyActive",
				"Not starting the run of %s because a previous run is still active and concurrencyPolicy is Forbid", formatTime(s.Time))
		case SkipDeadline:
			c.recorder.Eventf(acj, corev1.EventTypeWarning, "MissSchedule",
				"Missed scheduled time to start a run: %s (startingDeadlineSeconds %d)", formatTime(s.Time), *acj.Spec.StartingDeadlineSeconds)
		}
	}
}

func formatTime(t time.Time) string { return t.Format(time.RFC3339) }

// updateStatus writes status once per sync, and only when it changed.
func (c *Controller) updateStatus(ctx context.Context, acj *v1beta1.AdvancedCronJob, status v1beta1.AdvancedCronJobStatus) error {
	if len(status.Active) == 0 {
		status.Active = nil
	}
	if _, err := c.status.Write(ctx, acj, status, podworkload.Outcome{}); err != nil {
		return fmt.Errorf("AdvancedCronJob %s/%s: %w", acj.Namespace, acj.Name, err)
	}
	return nil
}

// statusAPI is the AdvancedCronJob's side of podworkload.StatusAPI. Its status is
// exact: lastScheduleTime is news.
type statusAPI struct{ client kruiseclient.Interface }

func (statusAPI) Status(acj *v1beta1.AdvancedCronJob) v1beta1.AdvancedCronJobStatus {
	return acj.Status
}

func (a statusAPI) UpdateStatus(ctx context.Context, acj *v1beta1.AdvancedCronJob, status v1beta1.AdvancedCronJobStatus) (*v1beta1.AdvancedCronJob, error) {
	out := acj.DeepCopy()
	out.Status = status
	return a.client.AppsV1beta1().AdvancedCronJobs(acj.Namespace).UpdateStatus(ctx, out, metav1.UpdateOptions{FieldManager: ControllerName})
}

func (statusAPI) ExactStatus() {}
