package inplaceupdate

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// TestStateJSON pins the wire form to OpenKruise's field names and omitempty choices.
func TestStateJSON(t *testing.T) {
	tests := []struct {
		name  string
		state State
		want  string
	}{{
		name:  "minimal",
		state: State{Revision: "rev-2", UpdateTimestamp: t0, LastContainerStatuses: map[string]ContainerStatus{}},
		want:  `{"revision":"rev-2","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":{},"verticalUpdateOnly":false}`,
	}, {
		name: "every field",
		state: State{
			Revision:                 "rev-2",
			UpdateTimestamp:          t0,
			LastContainerStatuses:    map[string]ContainerStatus{"main": {ImageID: "id-1"}},
			UpdateEnvFromMetadata:    true,
			UpdateImages:             true,
			NextContainerImages:      map[string]string{"main": "app:2"},
			NextContainerRefMetadata: map[string]metav1.ObjectMeta{"main": {Labels: map[string]string{"k": "v"}}},
			PreCheckBeforeNext:       &PreCheckBeforeNext{ContainersRequiredReady: []string{"sidecar"}},
			ContainerBatchesRecord:   []ContainerBatch{{Timestamp: t0, Containers: []string{"sidecar"}}},
		},
		want: `{"revision":"rev-2","updateTimestamp":"2026-01-02T03:04:05Z",` +
			`"lastContainerStatuses":{"main":{"imageID":"id-1","resources":{}}},` +
			`"updateEnvFromMetadata":true,"updateImages":true,"verticalUpdateOnly":false,` +
			`"nextContainerImages":{"main":"app:2"},` +
			`"nextContainerRefMetadata":{"main":{"labels":{"k":"v"}}},` +
			`"preCheckBeforeNext":{"containersRequiredReady":["sidecar"]},` +
			`"containerBatchesRecord":[{"timestamp":"2026-01-02T03:04:05Z","containers":["sidecar"]}]}`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(&tt.state)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("JSON (-want +got):\n%s", diff)
			}
			var back State
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.state, back); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGetStateOpenKruise reads a state as OpenKruise writes it.
func TestGetStateOpenKruise(t *testing.T) {
	okState := `{"revision":"demo-7d9f","updateTimestamp":"2024-05-01T10:00:00Z",` +
		`"lastContainerStatuses":{"nginx":{"imageID":"docker.io/library/nginx@sha256:aa","resources":{}}},` +
		`"updateImages":true,"verticalUpdateOnly":false,"containerBatchesRecord":[{"timestamp":"2024-05-01T10:00:00Z","containers":["nginx"]}]}`
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{pub.InPlaceUpdateStateKey: okState}}}
	s, err := GetState(pod)
	if err != nil {
		t.Fatal(err)
	}
	if s.Revision != "demo-7d9f" || s.LastContainerStatuses["nginx"].ImageID != "docker.io/library/nginx@sha256:aa" || !s.UpdateImages ||
		len(s.ContainerBatchesRecord) != 1 || s.ContainerBatchesRecord[0].Containers[0] != "nginx" {
		t.Errorf("GetState = %+v", s)
	}
}

func TestGetSetState(t *testing.T) {
	pod := &corev1.Pod{}
	if s, err := GetState(pod); s != nil || err != nil {
		t.Errorf("no annotation: GetState = %v, %v; want nil, nil", s, err)
	}
	want := &State{Revision: "r", UpdateTimestamp: t0, LastContainerStatuses: map[string]ContainerStatus{"c": {ImageID: "i"}}}
	if err := SetState(pod, want); err != nil {
		t.Fatal(err)
	}
	got, err := GetState(pod)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GetState after SetState (-want +got):\n%s", diff)
	}
	pod.Annotations[pub.InPlaceUpdateStateKey] = "{not json"
	if _, err := GetState(pod); err == nil {
		t.Error("GetState of a broken annotation: want error")
	}
}

// TestUpdateSpecJSON pins the grace annotation's form: OpenKruise's UpdateSpec, whose
// metaDataPatch is base64 of a strategic merge patch.
func TestUpdateSpecJSON(t *testing.T) {
	spec := &UpdateSpec{
		Revision:        "rev-2",
		ContainerImages: map[string]string{"main": "app:2"},
		MetaDataPatch: &MetadataPatch{
			Labels:            map[string]string{"a": "1"},
			RemoveLabels:      []string{"gone"},
			RemoveAnnotations: []string{"old"},
		},
		GraceSeconds: 5,
	}
	b, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	var wire struct {
		Revision        string            `json:"revision"`
		ContainerImages map[string]string `json:"containerImages"`
		MetaDataPatch   []byte            `json:"metaDataPatch"`
		GraceSeconds    int32             `json:"graceSeconds"`
	}
	if err := json.Unmarshal(b, &wire); err != nil {
		t.Fatal(err)
	}
	wantPatch := `{"metadata":{"labels":{"a":"1","gone":null},"annotations":{"old":null}}}`
	if string(wire.MetaDataPatch) != wantPatch {
		t.Errorf("metaDataPatch = %s (base64 %s), want %s", wire.MetaDataPatch, base64.StdEncoding.EncodeToString(wire.MetaDataPatch), wantPatch)
	}
	var back UpdateSpec
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(spec, &back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}
