package envrestart

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

func fieldEnv(name, path string) corev1.EnvVar {
	return corev1.EnvVar{Name: name, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: path}}}
}

func TestEnvFromInfo(t *testing.T) {
	env, err := envFromInfo(map[string]string{"info": `{"config":{"envs":[{"key":"A","value":"1"},{"key":"B"}]},"runtimeSpec":{"process":{"env":["A=2"]}}}`})
	if err != nil || !cmp.Equal(env, map[string]string{"A": "1", "B": ""}) {
		t.Errorf("config envs: %v, %v", env, err)
	}
	env, err = envFromInfo(map[string]string{"info": `{"runtimeSpec":{"process":{"env":["PATH=/bin","X=a=b"]}}}`})
	if err != nil || !cmp.Equal(env, map[string]string{"PATH": "/bin", "X": "a=b"}) {
		t.Errorf("OCI env fallback: %v, %v", env, err)
	}
	if _, err := envFromInfo(map[string]string{}); err == nil {
		t.Error("no info: want an error")
	}
	if _, err := envFromInfo(map[string]string{"info": "{"}); err == nil {
		t.Error("bad JSON: want an error")
	}
}

// envPod: app reads label version, sidecar reads nothing, logger reads annotation owner;
// the update's batch names app and logger.
func envPod(state string, edit ...func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns",
			Labels:      map[string]string{"version": "v2"},
			Annotations: map[string]string{"owner": "team-a"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{
			{Name: "app", Env: []corev1.EnvVar{fieldEnv("VER", "metadata.labels['version']")}},
			{Name: "sidecar"},
			{Name: "logger", Env: []corev1.EnvVar{fieldEnv("OWNER", "metadata.annotations['owner']")}},
		}},
		Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{
			{Name: "app", ContainerID: "fakecri://a1", RestartCount: 1},
			{Name: "sidecar", ContainerID: "fakecri://s1"},
			{Name: "logger", ContainerID: "fakecri://l1"},
		}},
	}
	if state != "" {
		p.Annotations[pub.InPlaceUpdateStateKey] = state
	}
	for _, e := range edit {
		e(p)
	}
	return p
}

const envState = `{"revision":"r2","updateTimestamp":null,"lastContainerStatuses":null,"updateEnvFromMetadata":true,"verticalUpdateOnly":false,"containerBatchesRecord":[{"timestamp":null,"containers":["app"]}]}`

func TestPlanPod(t *testing.T) {
	upToDate := map[string]Running{
		"app":    {ContainerID: "fakecri://a1", Env: map[string]string{"VER": "v2"}},
		"logger": {ContainerID: "fakecri://l1", Env: map[string]string{"OWNER": "team-a"}},
	}
	stale := map[string]Running{
		"app":    {ContainerID: "fakecri://a1", Env: map[string]string{"VER": "v1"}},
		"logger": {ContainerID: "fakecri://l1", Env: map[string]string{"OWNER": "old"}},
	}
	report := func(appHash, loggerHash uint64) string {
		b, _ := json.Marshal(RuntimeContainerMetaSet{Containers: []RuntimeContainerMeta{
			{Name: "app", ContainerID: "fakecri://a1", RestartCount: 1, Hashes: RuntimeContainerHashes{ExtractedEnvFromMetadataHash: appHash}},
			{Name: "logger", ContainerID: "fakecri://l1", Hashes: RuntimeContainerHashes{ExtractedEnvFromMetadataHash: loggerHash}},
		}})
		return string(b)
	}
	p := envPod("")
	appHash := ExpectedEnvFromMetadataHash(p, &p.Spec.Containers[0])
	loggerHash := ExpectedEnvFromMetadataHash(p, &p.Spec.Containers[2])
	staleLogger := EnvFromMetadataHash(&p.Spec.Containers[2], func(string) string { return "old" })

	cases := []struct {
		name    string
		pod     *corev1.Pod
		running map[string]Running
		want    Plan
		wantErr bool
	}{
		{name: "no in-place update: nothing", pod: envPod(""), running: stale},
		{name: "update without env from metadata: nothing", pod: envPod(`{"revision":"r2","updateTimestamp":null,"lastContainerStatuses":null,"verticalUpdateOnly":false}`), running: stale},
		{name: "unreadable state", pod: envPod("{"), running: stale, wantErr: true},
		{
			// only the batched container is restarted; logger waits for its batch
			name: "stale env in the batch: restart it, report nothing yet", pod: envPod(envState), running: stale,
			want: Plan{Restart: []Restart{{Name: "app", ContainerID: "fakecri://a1"}}},
		},
		{
			name: "restart done: report every container reading metadata", pod: envPod(envState),
			running: map[string]Running{"app": upToDate["app"], "logger": stale["logger"]},
			want:    Plan{Report: report(appHash, staleLogger)},
		},
		{
			name: "a container not known (restarting): wait", pod: envPod(envState),
			running: map[string]Running{"app": upToDate["app"]},
		},
		{
			name: "the runtime runs another container than the status shows: wait", pod: envPod(envState),
			running: map[string]Running{"app": {ContainerID: "fakecri://a2", Env: map[string]string{"VER": "v2"}}, "logger": upToDate["logger"]},
		},
		{
			name: "report unchanged: no write",
			pod: envPod(envState, func(p *corev1.Pod) {
				p.Annotations[RuntimeContainerMetaKey] = report(appHash, loggerHash)
			}),
			running: upToDate,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PlanPod(tc.pod, tc.running)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
		})
	}
}
