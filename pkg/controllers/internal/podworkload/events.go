package podworkload

// EventText words the events of pod and claim writes as the workload's OpenKruise
// controller does; the reasons are OpenKruise's and fixed here. An empty text records
// no event.
type EventText interface {
	PodCreated(pod string) string
	PodCreateFailed(pod string, err error) string
	PodDeleted(pod string) string
	PodDeleteFailed(pod string, err error) string
	ClaimCreated(claim, pod string) string
	ClaimCreateFailed(claim, pod string, err error) string
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
