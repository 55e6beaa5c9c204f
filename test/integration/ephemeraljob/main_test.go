// Package ephemeraljob tests EphemeralJobs end to end on the local control plane:
// kruise-controller adds the job's ephemeral containers to the pods it selects through
// their ephemeralcontainers subresource, and kwok (hack/local/kwok/
// pod-ephemeral-container-*.yaml) plays the kubelet: it starts them, and ends them after
// the pod's ephemeral.kwok.kruise-native.io/run-time (the stack's 1 s by default) with
// the pod's ephemeral.kwok.kruise-native.io/exit-code (0 by default).
package ephemeraljob

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
