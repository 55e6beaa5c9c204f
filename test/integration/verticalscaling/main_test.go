// Package verticalscaling tests in-place vertical scaling (feature gate
// InPlaceWorkloadVerticalScaling, off by default, turned on here for kruise-controller;
// a --feature-gates in KRUISE_CONTROLLER_ARGS comes after and wins, so
// KRUISE_CONTROLLER_ARGS=--feature-gates=InPlaceWorkloadVerticalScaling=false runs the
// same tests against the recreate path) on the local control plane: kwok's pod-resize
// Stage (hack/local/kwok) plays the kubelet's part of a resize.
package verticalscaling

import (
	"os"
	"strings"
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	args := strings.TrimSpace("--feature-gates=InPlaceWorkloadVerticalScaling=true " + os.Getenv("KRUISE_CONTROLLER_ARGS"))
	_ = os.Setenv("KRUISE_CONTROLLER_ARGS", args)
	framework.Main(m)
}
