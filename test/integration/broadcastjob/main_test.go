// Package broadcastjob tests the BroadcastJob controller on the local control plane:
// one pod per node, completion, TTL, the failure policies, nodes that join, and the
// kwok Stages job pods finish by (hack/local/kwok), kube's Job controller included.
package broadcastjob

import (
	"os"
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// jobRunTime is how long a job pod runs here unless its annotation says otherwise:
// longer than the documented example's activeDeadlineSeconds (10), whose comment says
// it is marked failed after 10 s active. Every other test names its pods' run time.
const jobRunTime = "20000"

func TestMain(m *testing.M) {
	if err := os.Setenv("KWOK_JOB_RUN_TIME_MS", jobRunTime); err != nil {
		panic(err)
	}
	framework.Main(m)
}
