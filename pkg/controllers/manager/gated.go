package manager

import (
	"context"

	"k8s.io/component-base/featuregate"
	"k8s.io/klog/v2"
)

// Gated builds the controller only while feature gate f is on. Off, a controller that
// does nothing stands in for it, so the process starts, reports ready and stops as with
// every controller on.
func Gated(f featuregate.Feature, newController NewFunc) NewFunc {
	return func(ctx context.Context, cc *ControllerContext) (Controller, error) {
		if !cc.Enabled(f) {
			klog.FromContext(ctx).Info("Controller turned off by its feature gate", "featureGate", f)
			return idle{gate: f}, nil
		}
		return newController(ctx, cc)
	}
}

// idle is a controller turned off by its gate.
type idle struct{ gate featuregate.Feature }

func (i idle) Name() string                 { return "off-by-" + string(i.gate) }
func (idle) HasSynced() bool                { return true }
func (idle) Run(ctx context.Context, _ int) { <-ctx.Done() }
