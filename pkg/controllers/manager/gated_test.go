package manager

import (
	"context"
	"testing"

	"k8s.io/klog/v2/ktesting"

	"github.com/kruise-native/kruise-native/pkg/features"
)

// Gated builds the controller only with its gate on; off, an idle stand-in that is
// synced at once, and the constructor is never called.
func TestGated(t *testing.T) {
	for _, on := range []bool{false, true} {
		_, ctx := ktesting.NewTestContext(t)
		gate := features.NewGate()
		if err := gate.SetFromMap(map[string]bool{string(features.SidecarTerminator): on}); err != nil {
			t.Fatal(err)
		}
		built := &fakeController{}
		calls := 0
		newFunc := Gated(features.SidecarTerminator, func(context.Context, *ControllerContext) (Controller, error) {
			calls++
			return built, nil
		})
		got, err := newFunc(ctx, &ControllerContext{FeatureGate: gate})
		if err != nil {
			t.Fatalf("gate on=%v: %v", on, err)
		}
		switch {
		case on && (calls != 1 || got != Controller(built)):
			t.Errorf("gate on: got %T after %d constructor calls, want the built controller after 1", got, calls)
		case !on && calls != 0:
			t.Errorf("gate off: constructor called %d times", calls)
		case !on && got.Name() != "off-by-"+string(features.SidecarTerminator):
			t.Errorf("gate off: got %s (%T), want the idle stand-in", got.Name(), got)
		case !on && !got.HasSynced():
			t.Error("gate off: the idle stand-in has not synced")
		}
		if !on {
			runCtx, cancel := context.WithCancel(ctx)
			cancel()
			got.Run(runCtx, 1) // returns once ctx ends
		}
	}
}
