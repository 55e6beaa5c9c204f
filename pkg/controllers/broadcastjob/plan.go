package broadcastjob

import (
	"time"

	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
)

// PodPhase is where a job pod stands.
type PodPhase int

const (
	// PodActive: not finished (pending or running).
	PodActive PodPhase = iota
	// PodSucceeded: finished with success.
	PodSucceeded
	// PodFailed: finished with failure.
	PodFailed
	// PodOverRestartLimit: a restartPolicy OnFailure pod still running whose containers
	// restarted more often than failurePolicy.restartLimit allows. It counts as failed
	// (OpenKruise: "the number of retries before marking the pod failed"), no longer as
	// active, and is deleted when the job finishes: the kubelet would restart it forever.
	PodOverRestartLimit
)

// Node is one node as the plan sees it: whether it should run a job pod, and the
// phases of the job's pods on it (none: it has not run one yet).
type Node struct {
	Name     string
	Eligible bool
	Pods     []PodPhase
}

// Input is what Compute needs of one unfinished BroadcastJob (a finished one only
// waits for its TTL).
type Input struct {
	Spec *v1beta1.BroadcastJobSpec
	// StartTime is when the job started (nil: it has not yet).
	StartTime *time.Time
	// Reported is the status the job carries: its failed count tells the failures
	// already seen from new ones (failurePolicy Pause), its phase a resumed job.
	Reported v1beta1.BroadcastJobStatus
	Nodes    []Node
	Now      time.Time
}

// Finish is how a job ends in this sync.
type Finish struct {
	Type    v1beta1.JobConditionType
	Reason  string
	Message string
}

// Plan is what one sync does and reports.
type Plan struct {
	// Create names the nodes that get a pod now.
	Create []string
	// DeleteRunning: the job finished; its pods that still run (active ones, and those
	// over their restart limit) go.
	DeleteRunning bool
	// Pause: failurePolicy Pause met a new failed pod; the job sets spec.paused, as
	// OpenKruise does, until the user resumes it.
	Pause bool
	// Resumed: the job was paused and no longer is.
	Resumed bool
	// Counts for status.
	Desired, Active, Succeeded, Failed int32
	Phase                              v1beta1.BroadcastJobPhase
	// Finish is set when the job finishes in this sync.
	Finish *Finish
	// DeadlineIn is how long until activeDeadlineSeconds runs out (0: no deadline
	// pending).
	DeadlineIn time.Duration
}

// Reasons of the Complete and Failed conditions and of their events, as OpenKruise's
// BroadcastJob controller words them.
const (
	ReasonComplete         = "Complete"
	ReasonDeadlineExceeded = "DeadlineExceeded"
	ReasonFailed           = "Failed"
)

// Compute decides what an unfinished BroadcastJob does: one pod per eligible node that
// has none, within parallelism (and batch.Burst a sync) and unless paused, and whether it
//   - fails: activeDeadlineSeconds ran out, or failurePolicy FailFast met a failed pod;
//   - pauses: failurePolicy Pause met a failed pod not yet reported in status (so that
//     a job the user resumed goes on past the failures they saw, and pauses again at
//     the next one);
//   - completes: completionPolicy Always, not paused, and every eligible node's pod
//     finished, failed ones included (failurePolicy Continue). A job no node is
//     eligible for waits for one, as OpenKruise's does;
//   - or runs on.
func Compute(in Input) Plan {
	var p Plan
	var missing []string
	running := 0 // pods not finished: active ones and those over their restart limit
	for _, n := range in.Nodes {
		for _, ph := range n.Pods {
			switch ph {
			case PodActive:
				p.Active++
				running++
			case PodSucceeded:
				p.Succeeded++
			case PodFailed:
				p.Failed++
			case PodOverRestartLimit:
				p.Failed++
				running++
			}
		}
		if !n.Eligible {
			continue
		}
		p.Desired++
		if len(n.Pods) == 0 {
			missing = append(missing, n.Name)
		}
	}
	if f := failure(in, p); f != nil {
		p.Finish, p.Phase, p.DeleteRunning = f, v1beta1.PhaseFailed, running > 0
		return p
	}
	p.DeadlineIn = deadlineIn(in)
	if in.Spec.FailurePolicy.Type == v1beta1.FailurePolicyTypePause && !in.Spec.Paused && p.Failed > in.Reported.Failed {
		p.Pause, p.Phase = true, v1beta1.PhasePaused
		return p
	}
	if in.Spec.Paused {
		p.Phase = v1beta1.PhasePaused
		return p
	}
	p.Resumed = in.Reported.Phase == v1beta1.PhasePaused
	if in.Spec.CompletionPolicy.Type != v1beta1.Never && p.Desired > 0 && len(missing) == 0 && p.Active == 0 {
		p.Phase, p.DeleteRunning = v1beta1.PhaseCompleted, running > 0
		p.Finish = &Finish{Type: v1beta1.JobComplete, Reason: ReasonComplete, Message: "Job completed"}
		p.DeadlineIn = 0
		return p
	}
	p.Phase = v1beta1.PhaseRunning
	// At most batch.Burst a sync, whatever parallelism says: the rest come with the
	// syncs that the new pods' events start.
	room := batch.Clamp(min(parallelism(in.Spec.Parallelism, int(p.Desired))-int(p.Active), len(missing)))
	if room > 0 {
		p.Create = missing[:room]
	}
	return p
}

// failure is why the job fails now, nil when it does not.
func failure(in Input, p Plan) *Finish {
	if in.Spec.FailurePolicy.Type == v1beta1.FailurePolicyTypeFailFast && p.Failed > 0 {
		return &Finish{Type: v1beta1.JobFailed, Reason: ReasonFailed, Message: "failed pod is found"}
	}
	if d := in.Spec.CompletionPolicy.ActiveDeadlineSeconds; d != nil && in.StartTime != nil && in.Spec.CompletionPolicy.Type != v1beta1.Never &&
		!in.Now.Before(in.StartTime.Add(time.Duration(*d)*time.Second)) {
		return &Finish{Type: v1beta1.JobFailed, Reason: ReasonDeadlineExceeded, Message: "Job was active longer than specified deadline"}
	}
	return nil
}

// deadlineIn is how long until the active deadline runs out (0: none pending).
func deadlineIn(in Input) time.Duration {
	d := in.Spec.CompletionPolicy.ActiveDeadlineSeconds
	if d == nil || in.StartTime == nil || in.Spec.CompletionPolicy.Type == v1beta1.Never {
		return 0
	}
	return in.StartTime.Add(time.Duration(*d) * time.Second).Sub(in.Now)
}

// parallelism is how many pods may be active at once: a number, or a percent of
// desired rounded up; unset means no bound.
func parallelism(v *intstr.IntOrString, desired int) int {
	if v == nil {
		return desired
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(v, desired, true)
	if err != nil || n < 0 {
		return desired // validation refuses these; never block the job on them
	}
	return n
}
