package nodedaemon

import (
	"encoding/json"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/nodedaemon/envrestart"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// envNode is the node of the env-from-metadata test.
const envNode = "kwok-node-2"

// A pod whose in-place update state asks for env from metadata: only the container
// that reads the changed label is restarted, it runs with the new value, and the daemon
// reports it in apps.kruise.io/runtime-containers-meta.
func TestEnvFromMetadataRestartsOnlyTheReader(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	reader := corev1.Container{Name: "app", Image: "nginx:1.25", Env: []corev1.EnvVar{{Name: "VERSION",
		ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels['version']"}}}}}
	other := corev1.Container{Name: "sidecar", Image: "busybox:1.36", Env: []corev1.EnvVar{{Name: "PLAIN", Value: "x"}}}
	before := runPod(t, ns, "env", envNode, map[string]string{"version": "v1"}, reader, other)
	if got := runtimeEnv(t, envNode, containerStatus(before, "app").ContainerID)["VERSION"]; got != "v1" {
		t.Fatalf("app starts with VERSION=%q, want v1", got)
	}

	// What the in-place update library writes in one patch: the new label and the state
	// naming app in its batch.
	state := map[string]any{
		"revision": "r2", "updateTimestamp": time.Now().UTC().Format(time.RFC3339), "lastContainerStatuses": map[string]any{},
		"updateEnvFromMetadata": true, "verticalUpdateOnly": false,
		"containerBatchesRecord": []any{map[string]any{"timestamp": time.Now().UTC().Format(time.RFC3339), "containers": []string{"app"}}},
	}
	stateJSON, _ := json.Marshal(state)
	mergePatchPod(t, ns, "env", map[string]any{"metadata": map[string]any{
		"labels":      map[string]string{"version": "v2"},
		"annotations": map[string]string{"apps.kruise.io/inplace-update-state": string(stateJSON)},
	}})

	var report envrestart.RuntimeContainerMetaSet
	after := waitPod(t, ns, "env", time.Minute, func(p *corev1.Pod) bool {
		v, ok := p.Annotations[envrestart.RuntimeContainerMetaKey]
		if !ok || json.Unmarshal([]byte(v), &report) != nil || len(report.Containers) != 1 {
			return false
		}
		return report.Containers[0].ContainerID == containerStatus(p, "app").ContainerID &&
			containerStatus(p, "app").ContainerID != containerStatus(before, "app").ContainerID
	})
	app, wasApp := containerStatus(after, "app"), containerStatus(before, "app")
	if app.RestartCount != wasApp.RestartCount+1 {
		t.Errorf("app restartCount %d → %d, want +1", wasApp.RestartCount, app.RestartCount)
	}
	if sc, was := containerStatus(after, "sidecar"), containerStatus(before, "sidecar"); sc.ContainerID != was.ContainerID || sc.RestartCount != was.RestartCount {
		t.Errorf("sidecar restarted (%s/%d → %s/%d); it reads no metadata", was.ContainerID, was.RestartCount, sc.ContainerID, sc.RestartCount)
	}
	if got := runtimeEnv(t, envNode, app.ContainerID)["VERSION"]; got != "v2" {
		t.Errorf("restarted app runs with VERSION=%q, want v2", got)
	}
	m := report.Containers[0]
	if m.Name != "app" || m.RestartCount != app.RestartCount || m.Hashes.ExtractedEnvFromMetadataHash != envrestart.ExpectedEnvFromMetadataHash(after, &after.Spec.Containers[0]) {
		t.Errorf("report %s, want app's new container with the hash of VERSION=v2", describe(m))
	}
}
