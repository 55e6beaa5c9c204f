// Package imagepredownload tests the pre-download of new images during in-place
// rollouts (feature gates PreDownloadImageForInPlaceUpdate and
// PreDownloadImageForDaemonSetUpdate, off by default, turned on here for
// kruise-controller) on the local control plane, with 5 nodes so that the nodes of the
// pods not yet updated are a strict subset.
package imagepredownload

import (
	"os"
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	if os.Getenv("NODES") == "" {
		_ = os.Setenv("NODES", "5")
	}
	_ = os.Setenv("KRUISE_CONTROLLER_ARGS", os.Getenv("KRUISE_CONTROLLER_ARGS")+" --feature-gates=PreDownloadImageForInPlaceUpdate=true,PreDownloadImageForDaemonSetUpdate=true")
	framework.Main(m)
}
