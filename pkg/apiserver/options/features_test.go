package options

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kruise-native/kruise-native/pkg/features"
	"github.com/kruise-native/kruise-native/pkg/podbudget"
)

// kruise-apiserver refuses the gate states it cannot honour, and
// --pod-webhook-readiness-gate with KruisePodReadinessGate off.
func TestValidateGates(t *testing.T) {
	for _, tt := range []struct {
		gates         string
		readinessFlag bool
		refused       string
	}{
		{gates: ""},
		{gates: "", readinessFlag: true},
		{gates: "KruisePodReadinessGate=false,PodUnavailableBudgetUpdateGate=false"},
		{gates: "KruisePodReadinessGate=false", readinessFlag: true, refused: "--pod-webhook-readiness-gate gives pods"},
		{gates: "CloneSetShortHash=true", refused: "CloneSetShortHash=true is not supported"},
	} {
		t.Run(fmt.Sprintf("%s,flag=%v", tt.gates, tt.readinessFlag), func(t *testing.T) {
			g := features.NewGate()
			if err := g.Set(tt.gates); err != nil {
				t.Fatal(err)
			}
			errs := validateGates(g, tt.readinessFlag)
			switch {
			case tt.refused == "" && len(errs) > 0:
				t.Fatalf("refused: %v", errs)
			case tt.refused != "" && (len(errs) == 0 || !strings.Contains(fmt.Sprint(errs), tt.refused)):
				t.Fatalf("got %v, want a refusal saying %q", errs, tt.refused)
			}
		})
	}
}

// The budget guard lets through what the PodUnavailableBudget gates turn off.
func TestUnguardedOperations(t *testing.T) {
	for flag, want := range map[string][]podbudget.Operation{
		"":                                     nil,
		"PodUnavailableBudgetUpdateGate=false": {podbudget.Update},
		"PodUnavailableBudgetDeleteGate=false": {podbudget.Delete, podbudget.Evict},
	} {
		g := features.NewGate()
		if err := g.Set(flag); err != nil {
			t.Fatal(err)
		}
		if got := unguardedOperations(g); !slices.Equal(got, want) {
			t.Errorf("%q: unguarded %v, want %v", flag, got, want)
		}
	}
}
