package fakecri

import (
	"fmt"
	"time"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// exitCodeKilled is what a container killed with SIGKILL exits with (128 + 9).
const exitCodeKilled = 137

// stopConfig is how running containers react to StopContainer.
type stopConfig struct {
	delay    time.Duration
	exitCode int32
}

// SetStopBehavior sets how containers react to StopContainer: they exit delay after the
// stop signal with exitCode, or are killed (exit code 137) when the caller's timeout is
// shorter than delay. The default is delay 0, exit code 0.
func (s *Server) SetStopBehavior(delay time.Duration, exitCode int32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stop = stopConfig{delay: delay, exitCode: exitCode}
}

// ExitContainer makes a running container exit by itself now, as a crash or an OOM
// kill would (reason "" becomes containerd's "Completed" or "Error" by exit code).
func (s *Server) ExitContainer(id string, exitCode int32, reason string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.findContainerLocked(id)
	if c == nil {
		return fmt.Errorf("fakecri: container %q not found", id)
	}
	if c.State != runtimeapi.ContainerState_CONTAINER_RUNNING {
		return fmt.Errorf("fakecri: container %q is %s, not running", id, c.State)
	}
	if reason == "" {
		reason = exitReason(exitCode)
	}
	s.exitLocked(c, exitCode, reason, "")
	return nil
}

// exitLocked moves a running container to EXITED; the caller holds s.mu.
func (s *Server) exitLocked(c *Container, exitCode int32, reason, message string) {
	c.State = runtimeapi.ContainerState_CONTAINER_EXITED
	c.FinishedAt = time.Now()
	c.ExitCode = exitCode
	c.Reason = reason
	c.Message = message
	s.publish(Event{Type: EventContainerExited, ID: c.ID, SandboxID: c.SandboxID, Labels: c.Labels})
}

// exitReason is containerd's reason for an exit code.
func exitReason(exitCode int32) string {
	if exitCode == 0 {
		return "Completed"
	}
	return "Error"
}

// Containers returns every container, oldest first.
func (s *Server) Containers() []Container {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.sortedContainersLocked()
	out := make([]Container, 0, len(list))
	for _, c := range list {
		out = append(out, c.clone())
	}
	return out
}

// Container returns the container with this ID (or unique ID prefix).
func (s *Server) Container(id string) (Container, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.findContainerLocked(id)
	if c == nil {
		return Container{}, false
	}
	return c.clone(), true
}
