// Package deletionprotection tests policy.kruise.io/delete-protection on built-in kinds
// with the real kube-apiserver calling kruise-apiserver's deletion webhook, registered
// as `make up` registers it (kruise-apiserver registers it itself, --pod-webhook-url), and what happens
// while kruise-apiserver is down (outage_test.go, which runs last and restarts it).
package deletionprotection

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
