// Package uniteddeployment tests the UnitedDeployment on the local control plane: the
// documented example (2/5/3 pods in zones a/b/c, each in its zone; scaled to 20:
// 2/10/8), per-subset partitions, each of the four subset kinds, Adaptive scheduling
// out of a zone without nodes and back once one joins, and bad input refused.
package uniteddeployment

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) { framework.Main(m) }
