package imagepuller

import "time"

// Phase of a task; the values are NodeImage's tag phases, so the caller can
// convert them directly.
type Phase string

const (
	// PhaseWaiting: accepted, waiting for a free worker.
	PhaseWaiting Phase = "Waiting"
	// PhasePulling: pulling, or waiting out the backoff between attempts.
	PhasePulling Phase = "Pulling"
	// PhaseSucceeded: the image is on the node.
	PhaseSucceeded Phase = "Succeeded"
	// PhaseFailed: every attempt allowed failed, or the deadline passed.
	PhaseFailed Phase = "Failed"
)

// Status is what the engine knows of one task.
type Status struct {
	Phase Phase
	// Progress is 0 until the pull succeeds, then 100: CRI's PullImage is a
	// single unary call that reports nothing until the image is there, so
	// there is no honest value in between.
	Progress int32
	// Attempts counts the pulls started, first one included.
	Attempts int32
	// Version is the Task.Version this status belongs to.
	Version int64
	// StartTime is when the task first got a worker (zero while Waiting);
	// CompletionTime is when it succeeded or failed.
	StartTime      time.Time
	CompletionTime time.Time
	// ImageID is the runtime's image ID (CRI image_ref) once succeeded.
	ImageID string
	// Message explains a failure, carrying the runtime's error text and the
	// number of attempts, or the retry under way.
	Message string
}

// Finished reports whether the task ended, successfully or not.
func (s Status) Finished() bool {
	return s.Phase == PhaseSucceeded || s.Phase == PhaseFailed
}
