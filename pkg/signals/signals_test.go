package signals

import (
	"syscall"
	"testing"
	"time"
)

// The first SIGTERM cancels the context (and does not end the process).
func TestFirstSignalCancels(t *testing.T) {
	ctx := Context()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("context not cancelled 10s after SIGTERM")
	}
}
