package apibench

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestKeptAllFields(t *testing.T) {
	sent := `{"spec":{"template":{"metadata":{"labels":{"app":"x"}}},"ports":[{"port":80}]},"status":{"replicas":0}}`
	for _, tc := range []struct {
		name, stored, wantErr string
	}{
		{name: "same", stored: sent},
		{name: "status reset (status subresource)", stored: `{"spec":{"template":{"metadata":{"labels":{"app":"x"}}},"ports":[{"port":80}]}}`},
		{name: "defaults added", stored: `{"spec":{"template":{"metadata":{"labels":{"app":"x"}},"spec":{}},"ports":[{"port":80,"protocol":"TCP"}]},"status":{}}`},
		{name: "template labels pruned", stored: `{"spec":{"template":{"metadata":{}},"ports":[{"port":80}]}}`, wantErr: ".spec.template.metadata.labels: dropped"},
		{name: "value changed", stored: `{"spec":{"template":{"metadata":{"labels":{"app":"y"}}},"ports":[{"port":80}]}}`, wantErr: "stored y, sent x"},
		{name: "list item dropped", stored: `{"spec":{"template":{"metadata":{"labels":{"app":"x"}}},"ports":[]}}`, wantErr: ".spec.ports"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := keptAllFields([]byte(sent), []byte(tc.stored))
			if tc.wantErr == "" && err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("error %v, want one mentioning %q", err, tc.wantErr)
			}
		})
	}
}

// The built-in peer carries the CloneSet's pod template, replicas, selector and
// maxUnavailable, and kube's Deployment defaults.
func TestDeploymentBodyMatchesCloneSet(t *testing.T) {
	cs, err := cloneSetBody("apps.kruise.io", "x")
	if err != nil {
		t.Fatal(err)
	}
	d, err := deploymentBody("x")
	if err != nil {
		t.Fatal(err)
	}
	var c, dep map[string]any
	if err := json.Unmarshal(cs, &c); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(d, &dep); err != nil {
		t.Fatal(err)
	}
	cspec, dspec := c["spec"].(map[string]any), dep["spec"].(map[string]any)
	for _, f := range []string{"template", "replicas", "selector"} {
		if !reflect.DeepEqual(cspec[f], dspec[f]) {
			t.Errorf("spec.%s differs:\nCloneSet   %v\nDeployment %v", f, cspec[f], dspec[f])
		}
	}
	if dep["apiVersion"] != "apps/v1" || dep["kind"] != "Deployment" {
		t.Errorf("type %v %v", dep["apiVersion"], dep["kind"])
	}
	ru := dspec["strategy"].(map[string]any)["rollingUpdate"].(map[string]any)
	if ru["maxUnavailable"] != "20%" || ru["maxSurge"] != "25%" || dspec["revisionHistoryLimit"] != float64(10) {
		t.Errorf("strategy %v, revisionHistoryLimit %v: want maxUnavailable 20%%, kube's defaults (maxSurge 25%%, 10)", ru, dspec["revisionHistoryLimit"])
	}
	tg := Target{Group: "apps", Namespace: "ns", Deployment: true}
	if got := tg.collection(); got != "/apis/apps/v1/namespaces/ns/deployments" {
		t.Errorf("collection %s", got)
	}
}
