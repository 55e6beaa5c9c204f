package cloneset

import "fmt"

// eventText words pod and claim events as OpenKruise's CloneSet controller does.
type eventText struct{}

func (eventText) PodCreated(pod string) string { return fmt.Sprintf("succeed to create pod %s", pod) }
func (eventText) PodCreateFailed(_ string, err error) string {
	return fmt.Sprintf("failed to create pod: %v", err)
}
func (eventText) PodDeleted(pod string) string { return fmt.Sprintf("succeed to delete pod %s", pod) }
func (eventText) PodDeleteFailed(pod string, err error) string {
	return fmt.Sprintf("failed to delete pod %s: %v", pod, err)
}
func (eventText) ClaimCreated(string, string) string { return "" }
func (eventText) ClaimCreateFailed(_, _ string, err error) string {
	return fmt.Sprintf("failed to create pvc: %v", err)
}
