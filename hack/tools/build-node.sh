#!/usr/bin/env bash
# Builds the node components of a real cluster, kubelet and kube-proxy (k8s.io/kubernetes at
# the version hack/tools/go.mod pins), into _output/bin, for `make test-cluster` only. Opt-in
# and separate from build.sh: kubelet takes about 8 minutes on 2 cores, and nothing else
# needs it, so `make tools` never pays for it.
#
# kube-proxy needs four modules no other tool does (moby/ipvs, vishvananda/netlink and netns,
# knftables). Their checksums live in hack/tools/node.sum, not in go.sum: build.sh's stamp is
# the hash of go.sum, and changing it would rebuild every tool on every checkout. The build
# reads go.mod, and go.sum plus node.sum, through an alternate module file (-modfile) under
# _output, so hack/tools itself is never rewritten.
#
# Skipped when _output/bin/.node-stamp holds the sha256 of go.mod, go.sum and node.sum and
# both binaries exist. Env: BIN_DIR (default <repo>/_output/bin), FORCE=1 rebuilds.
set -o errexit -o nounset -o pipefail

TOOLS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "${TOOLS_DIR}/../.." && pwd)"
BIN_DIR="${BIN_DIR:-${ROOT}/_output/bin}"
STAMP="${BIN_DIR}/.node-stamp"
MODDIR="${ROOT}/_output/tools-node"

# shellcheck source=lib.sh
source "${TOOLS_DIR}/lib.sh"

TOOLS=(
  "kube-proxy=k8s.io/kubernetes/cmd/kube-proxy"
  "kubelet=k8s.io/kubernetes/cmd/kubelet"
)

export GONOSUMDB="${GONOSUMDB:-k8s.io}"
export GOFLAGS="-mod=mod"
export CGO_ENABLED="${CGO_ENABLED:-0}"

want="$(cat "${TOOLS_DIR}/go.mod" "${TOOLS_DIR}/go.sum" "${TOOLS_DIR}/node.sum" | sha256sum | awk '{print $1}')"

up_to_date() {
  [[ -f "${STAMP}" ]] && grep -qx "${want}" "${STAMP}" || return 1
  local t
  for t in "${TOOLS[@]}"; do
    [[ -x "${BIN_DIR}/${t%%=*}" ]] || return 1
  done
}

if [[ "${FORCE:-0}" != "1" ]] && up_to_date; then
  echo "tools: kubelet and kube-proxy up to date in ${BIN_DIR}"
  exit 0
fi

mkdir -p "${BIN_DIR}" "${MODDIR}"
rm -f "${STAMP}"
# go reads node.sum beside node.mod (-modfile=X.mod uses X.sum).
cp "${TOOLS_DIR}/go.mod" "${MODDIR}/node.mod"
cat "${TOOLS_DIR}/go.sum" "${TOOLS_DIR}/node.sum" > "${MODDIR}/node.sum"

cd "${TOOLS_DIR}"
start_all=${SECONDS}
build_tools -modfile="${MODDIR}/node.mod"

echo "${want}" > "${STAMP}"
echo "tools: kubelet and kube-proxy built into ${BIN_DIR} in $((SECONDS - start_all))s"
