package containerrecreate

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/podutil"
	"github.com/kruise-native/kruise-native/pkg/recreaterequest"
)

// DefaultGracePeriod is the stop grace period when neither the request nor the pod
// names one (the kubelet's default).
const DefaultGracePeriod = 30 * time.Second

// Kind is the kind of step Decide returns.
type Kind int

const (
	// Wait: nothing to do now; look again after RequeueAfter (0: at the next change of
	// the request or its pod).
	Wait Kind = iota
	// RecordContext: write Contexts into spec.containers[*].statusContext.
	RecordContext
	// UpdateStatus: write States (and Phase, when set).
	UpdateStatus
	// Stop: run the preStop hook and stop each of Stops, then write States with each
	// stop's result applied (States already marks them Recreating/isKilled).
	Stop
)

func (k Kind) String() string {
	return [...]string{"Wait", "RecordContext", "UpdateStatus", "Stop"}[k]
}

// Input is everything Decide looks at.
type Input struct {
	CRR *v1alpha1.ContainerRecreateRequest
	// Pod is the request's pod, nil when it does not exist.
	Pod *corev1.Pod
	// Exited lists, by container name, containers whose statusContext container the
	// runtime no longer runs (exited or removed). Containers not listed are taken as
	// running: a missing fact never skips a stop that is due.
	Exited map[string]bool
	Now    time.Time
}

// StopOrder is one container to stop.
type StopOrder struct {
	Name string
	// ContainerID is the pod status form, "<runtime>://<id>".
	ContainerID string
	GracePeriod time.Duration
	PreStop     *v1alpha1.ProbeHandler
	// Ports resolve a named port of an httpGet hook.
	Ports []corev1.ContainerPort
}

// Decision is one step.
type Decision struct {
	Kind Kind
	// Contexts, for RecordContext, by container name.
	Contexts map[string]v1alpha1.ContainerRecreateRequestContainerContext
	// Phase, for UpdateStatus: Recreating when the daemon takes the request, ""
	// otherwise (the phase stays). The daemon writes no other phase: kruise-controller
	// completes the request once States are all final.
	Phase v1alpha1.ContainerRecreateRequestPhase
	// States, for UpdateStatus and Stop: every container's state, to write.
	States []v1alpha1.ContainerRecreateRequestContainerRecreateState
	Stops  []StopOrder
	// RequeueAfter, for Wait (and with any step): look again then at the latest
	// (minStartedSeconds, the unready grace, the deadline).
	RequeueAfter time.Duration
	// Reason says why, for logs.
	Reason string
}

// Decide returns the next step for a request. See the package comment for the states.
func Decide(in Input) Decision {
	crr := in.CRR
	if crr.DeletionTimestamp != nil || recreaterequest.Finished(crr.Status.Phase) || crr.Status.CompletionTime != nil {
		return Decision{Kind: Wait, Reason: "finished"}
	}
	blocker, deadlineIn := recreaterequest.Blocker(crr, in.Pod, in.Now)
	if blocker != "" {
		// kruise-controller fails the request; nothing more may be stopped for it.
		return Decision{Kind: Wait, Reason: blocker}
	}
	d := decide(in)
	d.RequeueAfter = recreaterequest.MinPositive(d.RequeueAfter, deadlineIn)
	return d
}

func decide(in Input) Decision {
	crr, pod := in.CRR, in.Pod
	if crr.Status.Phase != v1alpha1.ContainerRecreateRequestRecreating {
		// Pending (or not yet marked Pending by the controller: the same).
		if at, ok := recreaterequest.StartableAt(crr); !ok {
			return Decision{Kind: Wait, Reason: "waiting for the pod to be made unready (" + v1alpha1.ContainerRecreateRequestUnreadyAcquiredKey + ")"}
		} else if wait := at.Sub(in.Now); wait > 0 {
			return Decision{Kind: Wait, RequeueAfter: wait, Reason: "waiting out unreadyGracePeriodSeconds"}
		}
	}
	if ctxs, complete := missingContexts(crr, pod); len(ctxs) > 0 {
		return Decision{Kind: RecordContext, Contexts: ctxs, Reason: "recording the containers before stopping them"}
	} else if !complete {
		return Decision{Kind: Wait, Reason: "waiting for every container to have started (containerID in the pod status)"}
	}
	if crr.Status.Phase != v1alpha1.ContainerRecreateRequestRecreating {
		var states []v1alpha1.ContainerRecreateRequestContainerRecreateState
		for _, c := range crr.Spec.Containers {
			states = append(states, v1alpha1.ContainerRecreateRequestContainerRecreateState{Name: c.Name, Phase: v1alpha1.ContainerRecreateRequestPending})
		}
		return Decision{Kind: UpdateStatus, Phase: v1alpha1.ContainerRecreateRequestRecreating, States: states, Reason: "starting"}
	}
	return advance(in)
}

// advance moves a request in phase Recreating on.
func advance(in Input) Decision {
	crr, pod := in.CRR, in.Pod
	if strategy(crr).ForceRecreate {
		if ctxs := restartedBeforeStop(crr, pod); len(ctxs) > 0 {
			return Decision{Kind: RecordContext, Contexts: ctxs,
				Reason: "forceRecreate: recording containers that restarted on their own, to stop them anyway"}
		}
	}
	states, requeue := currentStates(crr, pod, in.Now)

	failFast := strategy(crr).FailurePolicy != v1alpha1.ContainerRecreateRequestFailurePolicyIgnore
	if failed := firstFailed(states); failed != "" && failFast {
		for i := range states {
			if !finishedState(states[i].Phase) {
				states[i].Phase = v1alpha1.ContainerRecreateRequestFailed
				states[i].Message = fmt.Sprintf("not recreated: container %s failed and failurePolicy is Fail", failed)
			}
		}
	}
	if allFinished(states) {
		// The daemon's work is over; kruise-controller completes the request from
		// these states.
		if !apiequality.Semantic.DeepEqual(states, crr.Status.ContainerRecreateStates) {
			return Decision{Kind: UpdateStatus, States: states, Reason: "every container has a final state"}
		}
		return Decision{Kind: Wait, Reason: "every container has a final state: kruise-controller completes the request"}
	}

	var stops []StopOrder
	for i := range states {
		st := &states[i]
		if st.Phase == v1alpha1.ContainerRecreateRequestPending {
			order, ok := stopOrder(crr, pod, st.Name)
			if !ok {
				// No statusContext: nothing may be stopped before it is recorded.
				return Decision{Kind: Wait, Reason: "container " + st.Name + " has no statusContext"}
			}
			st.Phase, st.IsKilled = v1alpha1.ContainerRecreateRequestRecreating, true
			// A container the runtime no longer runs was stopped already (by this
			// request, before a daemon restart, or it died): only wait for the kubelet
			// to start it again.
			if !in.Exited[st.Name] {
				stops = append(stops, order)
			}
		}
		if strategy(crr).OrderedRecreate && !finishedState(st.Phase) {
			break // the next container waits until this one is Succeeded or Failed
		}
	}
	if len(stops) > 0 {
		return Decision{Kind: Stop, States: states, Stops: stops, RequeueAfter: requeue, Reason: "stopping containers"}
	}
	if !apiequality.Semantic.DeepEqual(states, crr.Status.ContainerRecreateStates) {
		return Decision{Kind: UpdateStatus, States: states, RequeueAfter: requeue, Reason: "container states changed"}
	}
	return Decision{Kind: Wait, RequeueAfter: requeue, Reason: "waiting for recreated containers to run"}
}

// currentStates derives each container's state from its stored state, its
// statusContext and the pod status, and returns when a container will have run for
// minStartedSeconds (0 when none waits for that).
func currentStates(crr *v1alpha1.ContainerRecreateRequest, pod *corev1.Pod, now time.Time) ([]v1alpha1.ContainerRecreateRequestContainerRecreateState, time.Duration) {
	minStarted := time.Duration(strategy(crr).MinStartedSeconds) * time.Second
	var requeue time.Duration
	out := make([]v1alpha1.ContainerRecreateRequestContainerRecreateState, 0, len(crr.Spec.Containers))
	for _, c := range crr.Spec.Containers {
		st := v1alpha1.ContainerRecreateRequestContainerRecreateState{Name: c.Name, Phase: v1alpha1.ContainerRecreateRequestPending}
		if prev := storedState(crr, c.Name); prev != nil {
			st = *prev.DeepCopy()
		}
		if finishedState(st.Phase) {
			out = append(out, st)
			continue
		}
		if podContainer(pod, c.Name) == nil {
			st.Phase, st.Message = v1alpha1.ContainerRecreateRequestFailed, fmt.Sprintf("container %s not found in pod %s", c.Name, pod.Name)
			out = append(out, st)
			continue
		}
		cs := containerStatus(pod, c.Name)
		if recreated(c.StatusContext, cs) {
			st.Phase = v1alpha1.ContainerRecreateRequestRecreating
			if cs.State.Running != nil && cs.Ready {
				ranFor := now.Sub(cs.State.Running.StartedAt.Time)
				if ranFor >= minStarted {
					st.Phase = v1alpha1.ContainerRecreateRequestSucceeded
				} else {
					requeue = recreaterequest.MinPositive(requeue, minStarted-ranFor)
				}
			}
		} else if st.IsKilled {
			st.Phase = v1alpha1.ContainerRecreateRequestRecreating
		} else {
			st.Phase = v1alpha1.ContainerRecreateRequestPending
		}
		out = append(out, st)
	}
	return out, requeue
}

// restartedBeforeStop returns, for forceRecreate, new status contexts for the
// containers this request has not stopped yet that restarted on their own since their
// context was recorded (the pod shows another container or a higher restart count).
// Without forceRecreate such a restart counts as the recreation; with it the container
// the pod runs now is recorded, and then stopped like any other.
func restartedBeforeStop(crr *v1alpha1.ContainerRecreateRequest, pod *corev1.Pod) map[string]v1alpha1.ContainerRecreateRequestContainerContext {
	var out map[string]v1alpha1.ContainerRecreateRequestContainerContext
	for _, c := range crr.Spec.Containers {
		if prev := storedState(crr, c.Name); prev != nil && (prev.IsKilled || finishedState(prev.Phase)) {
			continue
		}
		cs := containerStatus(pod, c.Name)
		if !recreated(c.StatusContext, cs) {
			continue
		}
		if out == nil {
			out = map[string]v1alpha1.ContainerRecreateRequestContainerContext{}
		}
		out[c.Name] = v1alpha1.ContainerRecreateRequestContainerContext{ContainerID: cs.ContainerID, RestartCount: cs.RestartCount}
	}
	return out
}

// recreated: the pod runs another container than the one recorded, or the recorded
// one restarted.
func recreated(ctx *v1alpha1.ContainerRecreateRequestContainerContext, cs *corev1.ContainerStatus) bool {
	if ctx == nil || cs == nil || cs.ContainerID == "" {
		return false
	}
	return cs.ContainerID != ctx.ContainerID || cs.RestartCount > ctx.RestartCount
}

// missingContexts returns the statusContexts still to record, from the pod status.
// complete is false (and nothing is returned) while a container of the pod has no
// containerID yet, so its context cannot be recorded and nothing may be stopped. Containers the pod
// does not have get no context; they fail when the request starts.
func missingContexts(crr *v1alpha1.ContainerRecreateRequest, pod *corev1.Pod) (map[string]v1alpha1.ContainerRecreateRequestContainerContext, bool) {
	var out map[string]v1alpha1.ContainerRecreateRequestContainerContext
	complete := true
	for _, c := range crr.Spec.Containers {
		if c.StatusContext != nil || podContainer(pod, c.Name) == nil {
			continue
		}
		cs := containerStatus(pod, c.Name)
		if cs == nil || cs.ContainerID == "" {
			complete = false
			continue
		}
		if out == nil {
			out = map[string]v1alpha1.ContainerRecreateRequestContainerContext{}
		}
		out[c.Name] = v1alpha1.ContainerRecreateRequestContainerContext{ContainerID: cs.ContainerID, RestartCount: cs.RestartCount}
	}
	if !complete {
		// All in one write, at one moment: a context recorded early would take a
		// container's own restart meanwhile for the recreation.
		return nil, false
	}
	return out, true
}

// stopOrder is how to stop container name; false when its statusContext is missing.
func stopOrder(crr *v1alpha1.ContainerRecreateRequest, pod *corev1.Pod, name string) (StopOrder, bool) {
	for i := range crr.Spec.Containers {
		c := &crr.Spec.Containers[i]
		if c.Name == name && c.StatusContext != nil && c.StatusContext.ContainerID != "" {
			return StopOrder{Name: name, ContainerID: c.StatusContext.ContainerID, GracePeriod: gracePeriod(crr, pod),
				PreStop: c.PreStop, Ports: c.Ports}, true
		}
	}
	return StopOrder{}, false
}

func gracePeriod(crr *v1alpha1.ContainerRecreateRequest, pod *corev1.Pod) time.Duration {
	if g := strategy(crr).TerminationGracePeriodSeconds; g != nil && *g >= 0 {
		return time.Duration(*g) * time.Second
	}
	if g := pod.Spec.TerminationGracePeriodSeconds; g != nil && *g >= 0 {
		return time.Duration(*g) * time.Second
	}
	return DefaultGracePeriod
}

func firstFailed(states []v1alpha1.ContainerRecreateRequestContainerRecreateState) string {
	for _, st := range states {
		if st.Phase == v1alpha1.ContainerRecreateRequestFailed {
			return st.Name
		}
	}
	return ""
}

func allFinished(states []v1alpha1.ContainerRecreateRequestContainerRecreateState) bool {
	for _, st := range states {
		if !finishedState(st.Phase) {
			return false
		}
	}
	return true
}

func finishedState(p v1alpha1.ContainerRecreateRequestPhase) bool {
	return recreaterequest.ContainerFinished(p)
}

func strategy(crr *v1alpha1.ContainerRecreateRequest) v1alpha1.ContainerRecreateRequestStrategy {
	if crr.Spec.Strategy == nil {
		return v1alpha1.ContainerRecreateRequestStrategy{}
	}
	return *crr.Spec.Strategy
}

func storedState(crr *v1alpha1.ContainerRecreateRequest, name string) *v1alpha1.ContainerRecreateRequestContainerRecreateState {
	return recreaterequest.State(crr, name)
}

func podContainer(pod *corev1.Pod, name string) *corev1.Container {
	return podutil.Container(pod, name)
}

func containerStatus(pod *corev1.Pod, name string) *corev1.ContainerStatus {
	return podutil.ContainerStatus(pod, name)
}
