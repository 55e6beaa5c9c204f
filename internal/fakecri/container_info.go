package fakecri

import (
	"encoding/json"
	"hash/fnv"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// containerInfo is the verbose ContainerStatus info["info"] in containerd's shape, so
// code that reads the env (or other config) of a container on containerd reads it here
// the same way: config is the CRI ContainerConfig under its JSON names, runtimeSpec the
// OCI spec with the env as "KEY=value" strings.
type containerInfo struct {
	SandboxID   string      `json:"sandboxID"`
	Pid         uint32      `json:"pid"`
	Removing    bool        `json:"removing"`
	SnapshotKey string      `json:"snapshotKey"`
	Snapshotter string      `json:"snapshotter"`
	RuntimeType string      `json:"runtimeType"`
	Config      infoConfig  `json:"config"`
	RuntimeSpec runtimeSpec `json:"runtimeSpec"`
}

type infoConfig struct {
	Metadata    containerMetadata `json:"metadata"`
	Image       imageSpec         `json:"image"`
	Command     []string          `json:"command,omitempty"`
	Args        []string          `json:"args,omitempty"`
	WorkingDir  string            `json:"working_dir,omitempty"`
	Envs        []EnvVar          `json:"envs,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
	LogPath     string            `json:"log_path,omitempty"`
}

type containerMetadata struct {
	Name    string `json:"name"`
	Attempt uint32 `json:"attempt,omitempty"`
}

type imageSpec struct {
	Image string `json:"image"`
}

type runtimeSpec struct {
	OCIVersion  string            `json:"ociVersion"`
	Process     ociProcess        `json:"process"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

type ociProcess struct {
	Args []string `json:"args,omitempty"`
	Env  []string `json:"env,omitempty"`
	Cwd  string   `json:"cwd"`
}

func containerInfoJSON(c *Container) (string, error) {
	info := containerInfo{
		SandboxID:   c.SandboxID,
		SnapshotKey: c.ID,
		Snapshotter: "overlayfs",
		RuntimeType: "io.containerd.runc.v2",
		Config: infoConfig{
			Metadata:    containerMetadata{Name: c.Name, Attempt: c.Attempt},
			Image:       imageSpec{Image: c.ImageID},
			Command:     c.Command,
			Args:        c.Args,
			WorkingDir:  c.WorkingDir,
			Envs:        c.Env,
			Labels:      c.Labels,
			Annotations: c.Annotations,
			LogPath:     c.LogPath,
		},
		RuntimeSpec: runtimeSpec{
			OCIVersion:  "1.1.0",
			Process:     ociProcess{Args: append(append([]string(nil), c.Command...), c.Args...), Cwd: c.WorkingDir},
			Annotations: map[string]string{"io.kubernetes.cri.container-name": c.Name, "io.kubernetes.cri.sandbox-id": c.SandboxID},
		},
	}
	if info.RuntimeSpec.Process.Cwd == "" {
		info.RuntimeSpec.Process.Cwd = "/"
	}
	for _, e := range c.Env {
		info.RuntimeSpec.Process.Env = append(info.RuntimeSpec.Process.Env, e.Key+"="+e.Value)
	}
	if c.State == runtimeapi.ContainerState_CONTAINER_RUNNING {
		info.Pid = fakePid(c.ID)
	}
	b, err := json.Marshal(info)
	return string(b), err
}

// fakePid is a stable, plausible pid for a running container.
func fakePid(id string) uint32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	return 1000 + h.Sum32()%30000
}
