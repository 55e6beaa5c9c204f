// Package helmchart tests the Helm chart artifacts/charts/kruise-native with helm (built
// from its Go module by hack/tools/build-helm.sh): it renders exactly what the kustomize
// base renders, its values reach the objects, helm lint passes, and the local stack's
// kube-apiserver accepts an install as a server dry run.
package helmchart

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
