// Package advancedcronjob tests the AdvancedCronJob controller on the local control
// plane: the documented manifest starts a BroadcastJob every minute; history limits,
// Forbid and Replace act on runs that end (kwok completes job pods,
// hack/local/kwok/pod-complete.yaml) or never end (completionPolicy Never); a
// jobTemplate starts batch Jobs that kube's Job controller runs.
//
// Tests other than the example use "@every 15s" schedules, so that seeing three
// starts takes under a minute, and run in parallel, so that the waited minutes overlap.
package advancedcronjob

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
