#!/usr/bin/env bash
# Starts the local stack: a thin wrapper around `go run ./hack/local` (internal/localstack),
# kept for the commands hack/LOCAL.md shows. Same arguments:
#   hack/local-up.sh                 start whatever is not running yet (idempotent)
#   hack/local-up.sh start <name>    start one component of an existing stack
#   hack/local-up.sh status | ports
# Environment: hack/LOCAL.md. Stop with hack/local-down.sh.
set -o errexit -o nounset -o pipefail
# paths are relative to the caller's directory, as before
for v in LOCAL_DIR BIN_DIR KWOK_STAGES; do
  if [[ -n "${!v:-}" ]]; then export "${v}=$(realpath -m "${!v}")"; fi
done
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec go run ./hack/local "${@:-up}"
