#!/usr/bin/env bash
# Fails when committed generated code differs from what hack/update-codegen.sh
# produces: it regenerates into a copy of the tree and compares.
set -o errexit -o nounset -o pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "${TMP}"' EXIT

tar -C "${ROOT}" --exclude=./_output --exclude=./.git -cf - . | tar -C "${TMP}" -xf -
(cd "${TMP}" && hack/update-codegen.sh >/dev/null)

# where update-codegen.sh writes: Go code under pkg/
: >"${TMP}/codegen.diff"
for d in pkg; do
  diff -ruN "${ROOT}/${d}" "${TMP}/${d}" >>"${TMP}/codegen.diff" || true
done
if [[ -s "${TMP}/codegen.diff" ]]; then
  echo "Generated code is out of date; run hack/update-codegen.sh (make codegen). Differences:" >&2
  head -200 "${TMP}/codegen.diff" >&2
  exit 1
fi
echo "generated code up to date"
