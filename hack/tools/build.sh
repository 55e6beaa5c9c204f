#!/usr/bin/env bash
# Builds the upstream programs the local control plane runs into _output/bin:
#   kube-apiserver kube-controller-manager kube-scheduler kubectl  (k8s.io/kubernetes)
#   etcd                                                          (go.etcd.io/etcd/server/v3)
#   kwok                                                          (sigs.k8s.io/kwok)
#   controller-gen  (sigs.k8s.io/controller-tools; CRD schemas for the benchmark's CRD side)
# Versions are pinned by hack/tools/go.mod and go.sum. The build is skipped when
# _output/bin/.tools-stamp holds the sha256 of hack/tools/go.sum and every binary exists.
#
# Env: BIN_DIR (default <repo>/_output/bin), FORCE=1 rebuilds regardless of the stamp.
# Builds run one at a time: `go build` already uses every core for one package graph,
# and two concurrent kubernetes builds on a 2-core machine only thrash.
set -o errexit -o nounset -o pipefail

TOOLS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "${TOOLS_DIR}/../.." && pwd)"
BIN_DIR="${BIN_DIR:-${ROOT}/_output/bin}"
STAMP="${BIN_DIR}/.tools-stamp"

# shellcheck source=lib.sh
source "${TOOLS_DIR}/lib.sh"

# name -> package (order: the small ones first, so a broken proxy fails fast)
TOOLS=(
  "etcd=github.com/kruise-native/kruise-native/hack/tools/cmd/etcd"
  "kwok=sigs.k8s.io/kwok/cmd/kwok"
  "controller-gen=sigs.k8s.io/controller-tools/cmd/controller-gen"
  "kubectl=k8s.io/kubernetes/cmd/kubectl"
  "kube-apiserver=k8s.io/kubernetes/cmd/kube-apiserver"
  "kube-controller-manager=k8s.io/kubernetes/cmd/kube-controller-manager"
  "kube-scheduler=k8s.io/kubernetes/cmd/kube-scheduler"
)

# k8s.io modules are not all in the checksum database; go.sum pins their hashes.
export GONOSUMDB="${GONOSUMDB:-k8s.io}"
export GOFLAGS="-mod=mod"
export CGO_ENABLED="${CGO_ENABLED:-0}"

want="$(sha256sum "${TOOLS_DIR}/go.sum" | awk '{print $1}')"

up_to_date() {
  [[ -f "${STAMP}" ]] || return 1
  grep -qx "${want}" "${STAMP}" || return 1
  local t
  for t in "${TOOLS[@]}"; do
    [[ -x "${BIN_DIR}/${t%%=*}" ]] || return 1
  done
}

if [[ "${FORCE:-0}" != "1" ]] && up_to_date; then
  echo "tools: up to date in ${BIN_DIR} (go.sum ${want:0:12})"
  exit 0
fi

mkdir -p "${BIN_DIR}"
rm -f "${STAMP}"

cd "${TOOLS_DIR}"
start_all=${SECONDS}
build_tools

echo "${want}" > "${STAMP}"
echo "tools: all built into ${BIN_DIR} in $((SECONDS - start_all))s"
