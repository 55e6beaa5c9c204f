#!/usr/bin/env bash
# Generates generated.proto and generated.pb.go for the versioned API packages and
# adds protobuf struct tags to their types. go-to-protobuf resolves proto imports by
# GOPATH-style paths, so a temporary tree of symlinks maps import paths to module dirs.
set -o errexit -o nounset -o pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}"
export GONOSUMDB=k8s.io GOFLAGS=-mod=mod

command -v protoc >/dev/null || { echo "protoc not found: apt-get install -y protobuf-compiler" >&2; exit 1; }

MOD=github.com/kruise-native/kruise-native
TMP=$(mktemp -d)
trap 'rm -rf "${TMP}"' EXIT

moddir() { go list -m -f '{{.Dir}}' "$1"; }
link() { mkdir -p "${TMP}/src/$(dirname "$1")"; ln -s "$2" "${TMP}/src/$1"; }
link k8s.io/api "$(moddir k8s.io/api)"
link k8s.io/apimachinery "$(moddir k8s.io/apimachinery)"
link github.com/gogo/protobuf "$(moddir github.com/gogo/protobuf)"
link "${MOD}" "${ROOT}"

mkdir -p "${TMP}/bin"
go build -o "${TMP}/bin/protoc-gen-gogo" k8s.io/code-generator/cmd/go-to-protobuf/protoc-gen-gogo
go build -o "${TMP}/bin/goimports" golang.org/x/tools/cmd/goimports
export PATH="${TMP}/bin:${PATH}"

go tool go-to-protobuf \
  --go-header-file hack/boilerplate.go.txt \
  --output-dir "${TMP}/src" \
  --proto-import "${TMP}/src" \
  --proto-import "${TMP}/src/github.com/gogo/protobuf/protobuf" \
  --apimachinery-packages "-k8s.io/apimachinery/pkg/util/intstr,-k8s.io/apimachinery/pkg/api/resource,-k8s.io/apimachinery/pkg/runtime/schema,-k8s.io/apimachinery/pkg/runtime,-k8s.io/apimachinery/pkg/apis/meta/v1" \
  --packages "-k8s.io/api/core/v1,-k8s.io/api/apps/v1,-k8s.io/api/batch/v1,${MOD}/pkg/apis/apps/pub,${MOD}/pkg/apis/apps/v1alpha1,${MOD}/pkg/apis/apps/v1beta1,${MOD}/pkg/apis/policy/v1alpha1,${MOD}/pkg/apis/policy/v1beta1"
