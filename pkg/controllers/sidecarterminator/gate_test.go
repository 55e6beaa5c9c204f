package sidecarterminator_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	metadatafake "k8s.io/client-go/metadata/fake"
	"k8s.io/klog/v2/ktesting"

	"github.com/kruise-native/kruise-native/pkg/controllers"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/controllertest"
	"github.com/kruise-native/kruise-native/pkg/controllers/sidecarterminator"
	"github.com/kruise-native/kruise-native/pkg/features"
)

// kruise-controller's list builds the sidecar terminator only with its gate on; off
// (the default), an idle stand-in runs in its place.
func TestControllersAllGatesSidecarTerminator(t *testing.T) {
	for _, on := range []bool{false, true} {
		_, ctx := ktesting.NewTestContext(t)
		gate := features.NewGate()
		if err := gate.SetFromMap(map[string]bool{string(features.SidecarTerminator): on}); err != nil {
			t.Fatal(err)
		}
		f := controllertest.New(t)
		cc := f.Context
		cc.FeatureGate = gate
		cc.Dynamic = dynamicfake.NewSimpleDynamicClient(runtime.NewScheme())
		cc.Metadata = metadatafake.NewSimpleMetadataClient(runtime.NewScheme())
		var idle, built int
		for i, newController := range controllers.All {
			c, err := newController(ctx, cc)
			if err != nil {
				t.Fatalf("gate on=%v: building controller %d: %v", on, i, err)
			}
			switch c.(type) {
			case *sidecarterminator.Controller:
				built++
			default:
				if c.Name() == "off-by-"+string(features.SidecarTerminator) {
					idle++
					if !c.HasSynced() {
						t.Errorf("gate off: the stand-in has not synced")
					}
				}
			}
		}
		want := [2]int{1, 0} // gate off: idle, built
		if on {
			want = [2]int{0, 1}
		}
		if got := [2]int{idle, built}; got != want {
			t.Errorf("gate on=%v: %d idle stand-ins and %d sidecar terminators in controllers.All, want %d and %d",
				on, idle, built, want[0], want[1])
		}
	}
}
