package apibench

import (
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
