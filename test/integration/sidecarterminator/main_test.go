// Package sidecarterminator tests OpenKruise's SidecarTerminator (feature gate
// SidecarTerminator of kruise-controller, off by default) on the local control plane:
// kube's Job controller runs the Jobs, the pod webhook injects the SidecarSet's sidecar,
// kwok finishes the main containers while the sidecars run on
// (hack/local/kwok/pod-job-main-complete.yaml), and the nodes' kubelet simulator stops
// the containers of a pod once it is ended.
package sidecarterminator

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
