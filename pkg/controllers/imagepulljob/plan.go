package imagepulljob

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/distribution/reference"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
)

// RepullInterval is how often a job with completionPolicy Never pulls its image again
// on every node ("re-pull daily"), so a tag that moved in the registry is refreshed.
const RepullInterval = 24 * time.Hour

// SplitImage splits "name:tag" into the NodeImage key (the name as written, without
// tag) and the tag; no tag means latest.
func SplitImage(image string) (name, tag string, err error) {
	named, err := reference.ParseNormalizedNamed(image)
	if err != nil {
		return "", "", err
	}
	if tagged, ok := named.(reference.Tagged); ok {
		return strings.TrimSuffix(image, ":"+tagged.Tag()), tagged.Tag(), nil
	}
	return image, "latest", nil
}

// NodeProgress is where one selected node stands for a job.
type NodeProgress int

const (
	// NotStarted: the node's NodeImage does not list the tag for this job yet.
	NotStarted NodeProgress = iota
	// Pulling: listed, not finished (includes waiting for the daemon).
	Pulling
	Succeeded
	Failed
)

// NodeState is a node's progress and, when finished, since when.
type NodeState struct {
	Node       string
	Progress   NodeProgress
	FinishedAt time.Time
	Message    string
}

// Plan is what a sync does for a job: nodes to start (list the tag for), nodes to pull
// again, and the job's status.
type Plan struct {
	Start  []string
	Repull []string
	Status v1alpha1.ImagePullJobStatus
}

// Compute plans a job over its selected nodes' states (sorted by node name).
// Parallelism bounds the nodes pulling at once; 0 pauses the job.
func Compute(job *v1alpha1.ImagePullJob, nodes []NodeState, now time.Time) Plan {
	st := job.Status.DeepCopy()
	st.Desired = int32(len(nodes))
	st.Active, st.Succeeded, st.Failed, st.FailedNodes = 0, 0, 0, nil
	var notStarted []string
	for _, n := range nodes {
		switch n.Progress {
		case NotStarted:
			notStarted = append(notStarted, n.Node)
		case Pulling:
			st.Active++
		case Succeeded:
			st.Succeeded++
		case Failed:
			st.Failed++
			st.FailedNodes = append(st.FailedNodes, n.Node)
		}
	}
	plan := Plan{}
	if st.StartTime == nil {
		st.StartTime = timePtr(now)
	}
	if st.CompletionTime != nil {
		plan.Status = *st
		return plan
	}

	policy := job.Spec.CompletionPolicy
	if policy.Type != v1alpha1.Never {
		if d := policy.ActiveDeadlineSeconds; d != nil && now.Sub(st.StartTime.Time) >= time.Duration(*d)*time.Second {
			st.CompletionTime = timePtr(now)
			st.Message = fmt.Sprintf("job exceeded its activeDeadlineSeconds (%ds): %d of %d nodes pulled", *d, st.Succeeded, st.Desired)
			plan.Status = *st
			return plan
		}
		if st.Succeeded+st.Failed == st.Desired {
			st.CompletionTime = timePtr(now)
			st.Message = completedMessage(st)
			plan.Status = *st
			return plan
		}
	} else {
		for _, n := range nodes {
			if (n.Progress == Succeeded || n.Progress == Failed) && now.Sub(n.FinishedAt) >= RepullInterval {
				plan.Repull = append(plan.Repull, n.Node)
			}
		}
	}

	// At most batch.Burst NodeImage writes of each kind a sync, whatever parallelism
	// says: each write's NodeImage event brings the job back for the rest.
	plan.Repull = batch.First(plan.Repull)
	slots := batch.Clamp(min(Parallelism(job, len(nodes))-int(st.Active), len(notStarted)))
	plan.Start = append(plan.Start, notStarted[:slots]...)
	st.Active += int32(len(plan.Start))
	switch {
	case Parallelism(job, len(nodes)) == 0:
		st.Message = fmt.Sprintf("job is paused (parallelism 0), progress %d/%d", st.Succeeded+st.Failed, st.Desired)
	default:
		st.Message = fmt.Sprintf("job is running, progress %d/%d", st.Succeeded+st.Failed, st.Desired)
	}
	plan.Status = *st
	return plan
}

func completedMessage(st *v1alpha1.ImagePullJobStatus) string {
	if st.Desired == 0 {
		return "job has completed: no node matched its selector"
	}
	if st.Failed > 0 {
		return fmt.Sprintf("job has completed: %d of %d nodes failed to pull", st.Failed, st.Desired)
	}
	return "job has completed"
}

// Parallelism resolves spec.parallelism against the number of selected nodes
// (percentages round up, so 1% of 3 nodes is 1).
func Parallelism(job *v1alpha1.ImagePullJob, nodes int) int {
	p := job.Spec.Parallelism
	if p == nil {
		return 1
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(p, nodes, true)
	if err != nil || n < 0 {
		return 0
	}
	return min(n, math.MaxInt32)
}

func timePtr(t time.Time) *metav1.Time { mt := metav1.NewTime(t); return &mt }

// ownerRef is how a job appears among a tag's owners.
func ownerRef(job *v1alpha1.ImagePullJob) corev1.ObjectReference {
	return corev1.ObjectReference{Kind: "ImagePullJob", APIVersion: v1alpha1.SchemeGroupVersion.String(),
		Namespace: job.Namespace, Name: job.Name, UID: job.UID}
}

func ownedBy(refs []corev1.ObjectReference, uid types.UID) bool {
	for _, r := range refs {
		if r.UID == uid {
			return true
		}
	}
	return false
}
