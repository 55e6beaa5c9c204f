// Package aggregation tests kruise-apiserver as kube-apiserver's aggregator sees it:
// availability, restarts, namespace deletion and authorization.
package aggregation

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
