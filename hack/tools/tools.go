//go:build tools

// Package tools pins the upstream programs the local control plane runs, so that
// `go mod tidy` keeps them (and their exact versions) in this module's go.mod.
// It is never built; hack/tools/build.sh builds each program explicitly.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubectl"
	_ "sigs.k8s.io/controller-tools/cmd/controller-gen"
	_ "sigs.k8s.io/kwok/cmd/kwok"
)
