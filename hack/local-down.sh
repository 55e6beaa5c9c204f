#!/usr/bin/env bash
# Stops what hack/local-up.sh / make up started in LOCAL_DIR: a thin wrapper around
# `go run ./hack/local stop` (internal/localstack).
#   hack/local-down.sh                 stop everything (CLEAN=1: also remove the data)
#   hack/local-down.sh <component>...  stop only these (e.g. kruise-apiserver)
set -o errexit -o nounset -o pipefail
# paths are relative to the caller's directory, as before
for v in LOCAL_DIR BIN_DIR KWOK_STAGES; do
  if [[ -n "${!v:-}" ]]; then export "${v}=$(realpath -m "${!v}")"; fi
done
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec go run ./hack/local stop "$@"
