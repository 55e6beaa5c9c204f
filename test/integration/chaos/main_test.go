// Package chaos kills and restarts components of the HA topology (make up HA=1) under a
// steady write load and a CloneSet rollout in flight, and writes what it saw to a
// Markdown report. Opt-in (it takes minutes): make test-chaos, or KRUISE_CHAOS=1.
//
// Environment: CHAOS_PODS (the rollout's pods, default 200; make test-chaos SMALL=1 uses
// 20), CHAOS_REPORT (the report's path, default test/integration/chaos/results/<UTC
// date>.md), CHAOS_OUTAGE (seconds a killed component stays down, default 5).
package chaos

import (
	"fmt"
	"os"
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	if !optedIn() {
		// the unit tests of the load and the report run; TestChaos skips
		fmt.Println("chaos: opt-in, the suite is not run: make test-chaos (or KRUISE_CHAOS=1)")
		os.Exit(m.Run())
	}
	framework.MainHA(m)
}

func optedIn() bool { return os.Getenv("KRUISE_CHAOS") == "1" }
