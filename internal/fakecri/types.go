package fakecri

import (
	"maps"
	"slices"
	"time"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// The types below are what the in-process API hands out: copies, so a caller can keep
// them while the runtime goes on changing.

// Image is an image in the runtime's store.
type Image struct {
	// Ref is the normalized reference it was pulled (or added) as.
	Ref         string
	ID          string
	RepoTags    []string
	RepoDigests []string
	Size        uint64
}

// EnvVar is one environment variable a container was created with.
type EnvVar struct {
	Key   string `json:"key,omitempty"`
	Value string `json:"value,omitempty"`
}

// Sandbox is a pod sandbox.
type Sandbox struct {
	ID                   string
	Name, Namespace, UID string
	Attempt              uint32
	State                runtimeapi.PodSandboxState
	Hostname             string
	Labels, Annotations  map[string]string
	CreatedAt            time.Time
}

// Container is a container and what it was created with.
type Container struct {
	ID, SandboxID string
	Name          string
	Attempt       uint32
	// Image is the normalized reference; UserImage the image as the caller wrote it;
	// ImageID the image's ID and ImageRef its repo digest (what kubelet reports as imageID).
	Image, UserImage, ImageID, ImageRef string
	Command, Args                       []string
	WorkingDir                          string
	Env                                 []EnvVar
	Labels, Annotations                 map[string]string
	LogPath                             string
	State                               runtimeapi.ContainerState
	CreatedAt, StartedAt, FinishedAt    time.Time
	ExitCode                            int32
	Reason, Message                     string
}

// EnvValue returns the value of the env var key and whether the container has it.
func (c *Container) EnvValue(key string) (string, bool) {
	for _, e := range c.Env {
		if e.Key == key {
			return e.Value, true
		}
	}
	return "", false
}

func (i *Image) clone() Image {
	out := *i
	out.RepoTags = slices.Clone(i.RepoTags)
	out.RepoDigests = slices.Clone(i.RepoDigests)
	return out
}

func (s *Sandbox) clone() Sandbox {
	out := *s
	out.Labels = maps.Clone(s.Labels)
	out.Annotations = maps.Clone(s.Annotations)
	return out
}

func (c *Container) clone() Container {
	out := *c
	out.Command = slices.Clone(c.Command)
	out.Args = slices.Clone(c.Args)
	out.Env = slices.Clone(c.Env)
	out.Labels = maps.Clone(c.Labels)
	out.Annotations = maps.Clone(c.Annotations)
	return out
}

// nanos is the CRI encoding of a time: nanoseconds since the epoch, 0 for never.
func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}
