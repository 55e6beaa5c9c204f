package imagepuller

import (
	"fmt"
	"time"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// Defaults of OpenKruise's pull policy, applied when a Task leaves the field
// zero (Timeout) or nil (BackoffLimit).
const (
	DefaultTimeout      = 600 * time.Second
	DefaultBackoffLimit = 3
)

// PullPolicy says whether an image already on the node is pulled again.
type PullPolicy string

const (
	// PullIfNotPresent skips the pull when the runtime already has the
	// image. It is OpenKruise's documented default for ImagePullJob and
	// NodeImage tags ("One of Always, IfNotPresent. Defaults to
	// IfNotPresent"), so the empty value means it too.
	PullIfNotPresent PullPolicy = "IfNotPresent"
	// PullAlways always pulls, so a moved tag is fetched again.
	PullAlways PullPolicy = "Always"
)

// Task is one image to pull. The Manager keeps the Task it was given: do not
// modify its slices or the sandbox config after passing it to Sync.
type Task struct {
	// Image is the reference handed to the runtime as is, "name:tag"
	// (runtimes qualify short names themselves).
	Image string
	// Version identifies the request: a new version restarts the task, the
	// same version keeps its state and result.
	Version int64
	// PullPolicy: empty means PullIfNotPresent.
	PullPolicy PullPolicy
	// Timeout bounds each attempt; zero means DefaultTimeout.
	Timeout time.Duration
	// BackoffLimit is the number of retries after the first failed
	// attempt; nil means DefaultBackoffLimit, 0 no retry (a pointer, as in
	// the API, because zero is a meaningful limit).
	BackoffLimit *int32
	// ActiveDeadline bounds the whole task from its StartTime; zero means
	// no bound.
	ActiveDeadline time.Duration
	// Auths are tried in order within each attempt until one succeeds
	// (what the kubelet does with several matching pull secrets); none
	// means an anonymous pull.
	Auths []*runtimeapi.AuthConfig
	// SandboxConfig, optional, is passed to PullImage (OpenKruise's
	// sandboxConfig labels and annotations, for runtimes that pick a
	// snapshotter or mirror by them).
	SandboxConfig *runtimeapi.PodSandboxConfig
}

func (t Task) timeout() time.Duration {
	if t.Timeout <= 0 {
		return DefaultTimeout
	}
	return t.Timeout
}

func (t Task) backoffLimit() int {
	if t.BackoffLimit == nil {
		return DefaultBackoffLimit
	}
	return int(*t.BackoffLimit)
}

func (t Task) validate() error {
	if _, err := ParseReference(t.Image); err != nil {
		return err
	}
	switch t.PullPolicy {
	case "", PullIfNotPresent, PullAlways:
	default:
		return fmt.Errorf("unknown pull policy %q", t.PullPolicy)
	}
	if t.BackoffLimit != nil && *t.BackoffLimit < 0 {
		return fmt.Errorf("negative backoff limit %d", *t.BackoffLimit)
	}
	if t.ActiveDeadline < 0 {
		return fmt.Errorf("negative active deadline %s", t.ActiveDeadline)
	}
	return nil
}
