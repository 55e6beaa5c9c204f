package statefulset

import "fmt"

// eventText words pod and claim events as OpenKruise's (and kube's) StatefulSet
// controller does.
type eventText struct{}

func (eventText) PodCreated(set, pod string) string {
	return fmt.Sprintf("create Pod %s in StatefulSet %s successful", pod, set)
}
func (eventText) PodCreateFailed(set, pod string, err error) string {
	return fmt.Sprintf("create Pod %s in StatefulSet %s failed error: %v", pod, set, err)
}
func (eventText) PodDeleted(set, pod string) string {
	return fmt.Sprintf("delete Pod %s in StatefulSet %s successful", pod, set)
}
func (eventText) PodDeleteFailed(set, pod string, err error) string {
	return fmt.Sprintf("delete Pod %s in StatefulSet %s failed error: %v", pod, set, err)
}
func (eventText) ClaimCreated(set, claim, pod string) string {
	return fmt.Sprintf("create Claim %s Pod %s in StatefulSet %s success", claim, pod, set)
}
func (eventText) ClaimCreateFailed(set, claim, pod string, err error) string {
	return fmt.Sprintf("create Claim %s for Pod %s in StatefulSet %s failed error: %v", claim, pod, set, err)
}
