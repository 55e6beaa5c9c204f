package broadcastjob

import "fmt"

// eventText words pod events as OpenKruise's BroadcastJob controller does (it records
// them through kube's pod control).
type eventText struct{}

func (eventText) PodCreated(_, pod string) string { return fmt.Sprintf("Created pod: %s", pod) }
func (eventText) PodCreateFailed(_, _ string, err error) string {
	return fmt.Sprintf("Error creating: %v", err)
}
func (eventText) PodDeleted(_, pod string) string { return fmt.Sprintf("Deleted pod: %s", pod) }
func (eventText) PodDeleteFailed(_, _ string, err error) string {
	return fmt.Sprintf("Error deleting: %v", err)
}
func (eventText) ClaimCreated(_, _, _ string) string                 { return "" }
func (eventText) ClaimCreateFailed(_, _, _ string, err error) string { return "" }
