package envrestart

import (
	"encoding/json"
	"fmt"
	"strings"
)

// verboseInfo is the part of a verbose CRI ContainerStatus info["info"] that holds the
// container's env, in containerd's shape (CRI-O and the fake runtime use it too): the
// CRI config it was created with, and the OCI spec's process env as a fallback.
type verboseInfo struct {
	Config struct {
		Envs []struct {
			Key   string `json:"key"`
			Value string `json:"value"`
		} `json:"envs"`
	} `json:"config"`
	RuntimeSpec struct {
		Process struct {
			Env []string `json:"env"`
		} `json:"process"`
	} `json:"runtimeSpec"`
}

// envFromInfo parses the env of a container from its verbose status info.
func envFromInfo(info map[string]string) (map[string]string, error) {
	raw, ok := info["info"]
	if !ok || raw == "" {
		return nil, fmt.Errorf("the runtime's verbose container status has no info")
	}
	var vi verboseInfo
	if err := json.Unmarshal([]byte(raw), &vi); err != nil {
		return nil, fmt.Errorf("verbose container info: %w", err)
	}
	env := map[string]string{}
	if len(vi.Config.Envs) > 0 {
		for _, e := range vi.Config.Envs {
			env[e.Key] = e.Value
		}
		return env, nil
	}
	for _, kv := range vi.RuntimeSpec.Process.Env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	return env, nil
}
