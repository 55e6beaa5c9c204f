package broadcastjob

import (
	"time"

	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
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
)

// Node is one node as the plan sees it: whether it should run a job pod, and the
// phases of the job's pods on it (none: it has not run one yet).
type Node struct {
	Name     string
	Eligible bool
	Pods     []PodPhase
}

// Input is what Compute needs of one BroadcastJob.
type Input struct {
	Spec *v1beta1.BroadcastJobSpec
	// StartTime is when the job started (nil: it has not yet).
	StartTime *time.Time
	// Finished is the condition the job already carries ("": none).
	Finished v1beta1.JobConditionType
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
	// DeleteActive: the job failed, its active pods go.
	DeleteActive bool
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

// Compute decides what a BroadcastJob does: one pod per eligible node that has none,
// within parallelism and unless paused, and whether the job completes (every eligible
// node's pod finished under completionPolicy Always), fails (FailFast at the first
// failed pod, or activeDeadlineSeconds run out) or runs on.
func Compute(in Input) Plan {
	var p Plan
	var missing []string
	for _, n := range in.Nodes {
		for _, ph := range n.Pods {
			switch ph {
			case PodActive:
				p.Active++
			case PodSucceeded:
				p.Succeeded++
			case PodFailed:
				p.Failed++
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
	switch in.Finished {
	case v1beta1.JobComplete:
		p.Phase = v1beta1.PhaseCompleted
		return p
	case v1beta1.JobFailed:
		p.Phase = v1beta1.PhaseFailed
		return p
	}
	if f := failure(in, p); f != nil {
		p.Finish, p.Phase, p.DeleteActive = f, v1beta1.PhaseFailed, p.Active > 0
		return p
	}
	if in.Spec.CompletionPolicy.Type != v1beta1.Never && len(missing) == 0 && p.Active == 0 {
		p.Phase = v1beta1.PhaseCompleted
		p.Finish = &Finish{Type: v1beta1.JobComplete, Reason: ReasonComplete, Message: "Job completed"}
		return p
	}
	p.DeadlineIn = deadlineIn(in)
	if in.Spec.Paused {
		p.Phase = v1beta1.PhasePaused
		return p
	}
	p.Phase = v1beta1.PhaseRunning
	room := int(parallelism(in.Spec.Parallelism, p.Desired) - p.Active)
	if room > len(missing) {
		room = len(missing)
	}
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
func parallelism(v *intstr.IntOrString, desired int32) int32 {
	if v == nil {
		return desired
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(v, int(desired), true)
	if err != nil || n < 0 {
		return desired // validation refuses these; never block the job on them
	}
	return int32(n)
}
