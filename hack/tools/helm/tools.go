//go:build tools

// Package helm pins helm, which tests the chart in artifacts/charts/kruise-native. It is
// a module of its own so that its dependencies (another Kubernetes library line) never
// move the versions that hack/tools builds the control plane with, and so that adding
// it does not invalidate hack/tools' build stamp. hack/tools/build-helm.sh builds it.
package helm

import (
	_ "helm.sh/helm/v3/cmd/helm"
)
