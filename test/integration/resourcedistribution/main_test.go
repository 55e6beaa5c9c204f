// Package resourcedistribution tests ResourceDistribution on the local control plane:
// the documented manifest, applied unchanged with kubectl, copies its ConfigMap into
// the namespaces it selects, follows the source and the namespaces' labels, leaves an
// object it did not create alone and reports it, and bad input is refused.
package resourcedistribution

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
