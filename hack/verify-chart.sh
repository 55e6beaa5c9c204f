#!/usr/bin/env bash
# Fails when artifacts/charts/kruise-native is not what hack/gen-helm-chart generates from
# the kustomize base artifacts/deploy and VERSION, or when the base's image tags are not
# v<VERSION> (fix: make chart, which sets both).
set -o errexit -o nounset -o pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
go run ./hack/gen-helm-chart -verify
