package cloneset

import "fmt"

// eventText words pod and claim events as OpenKruise's CloneSet controller does.
type eventText struct{}

func (eventText) PodCreated(_, pod string) string {
	return fmt.Sprintf("succeed to create pod %s", pod)
}
func (eventText) PodCreateFailed(_, _ string, err error) string {
	return fmt.Sprintf("failed to create pod: %v", err)
}
func (eventText) PodDeleted(_, pod string) string {
	return fmt.Sprintf("succeed to delete pod %s", pod)
}
func (eventText) PodDeleteFailed(_, pod string, err error) string {
	return fmt.Sprintf("failed to delete pod %s: %v", pod, err)
}
func (eventText) ClaimCreated(_, _, _ string) string { return "" }
func (eventText) ClaimCreateFailed(_, _, _ string, err error) string {
	return fmt.Sprintf("failed to create pvc: %v", err)
}
