package podworkload

// EventText words the events of pod and claim writes of the workload named owner as
// the workload's OpenKruise controller does; the reasons are OpenKruise's and fixed
// here. An empty text records no event.
type EventText interface {
	PodCreated(owner, pod string) string
	PodCreateFailed(owner, pod string, err error) string
	PodDeleted(owner, pod string) string
	PodDeleteFailed(owner, pod string, err error) string
	ClaimCreated(owner, claim, pod string) string
	ClaimCreateFailed(owner, claim, pod string, err error) string
}

// Event reasons, as OpenKruise's workload controllers record them.
const (
	ReasonSuccessfulCreate           = "SuccessfulCreate"
	ReasonFailedCreate               = "FailedCreate"
	ReasonSuccessfulDelete           = "SuccessfulDelete"
	ReasonFailedDelete               = "FailedDelete"
	ReasonLifecycleStateChanged      = "LifecycleStateChanged"
	ReasonSuccessfulUpdatePodInPlace = "SuccessfulUpdatePodInPlace"
	ReasonFailedUpdatePodInPlace     = "FailedUpdatePodInPlace"
)
