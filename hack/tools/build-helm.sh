#!/usr/bin/env bash
# Builds helm (helm.sh/helm/v3, pinned by hack/tools/helm/go.mod and go.sum) into
# _output/bin, for the chart's tests (test/integration/helmchart). A module of its own:
# helm's Kubernetes libraries never move hack/tools' versions. Skipped when
# _output/bin/.helm-stamp holds the sha256 of hack/tools/helm/go.sum and of this script,
# and helm exists. Like helm's own release build, it stamps the Kubernetes version of its
# client-go as the default for `helm template` and `helm lint` (without it helm assumes
# v1.20 and refuses the chart's kubeVersion).
#
# Env: BIN_DIR (default <repo>/_output/bin), FORCE=1 rebuilds regardless of the stamp.
set -o errexit -o nounset -o pipefail

HELM_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/helm" && pwd)"
ROOT="$(cd "${HELM_DIR}/../../.." && pwd)"
BIN_DIR="${BIN_DIR:-${ROOT}/_output/bin}"
STAMP="${BIN_DIR}/.helm-stamp"

export GONOSUMDB="${GONOSUMDB:-k8s.io}"
export GOFLAGS="-mod=mod"
export CGO_ENABLED="${CGO_ENABLED:-0}"

want="$(cat "${HELM_DIR}/go.sum" "${BASH_SOURCE[0]}" | sha256sum | awk '{print $1}')"
if [[ "${FORCE:-0}" != "1" && -x "${BIN_DIR}/helm" && -f "${STAMP}" ]] && grep -qx "${want}" "${STAMP}"; then
  echo "tools: helm up to date in ${BIN_DIR}"
  exit 0
fi

cd "${HELM_DIR}"
version="$(go list -m -f '{{.Version}}' helm.sh/helm/v3)"
# client-go v0.X.Y is Kubernetes v1.X.Y.
kube_minor="$(go list -m -f '{{.Version}}' k8s.io/client-go | cut -d. -f2)"
mkdir -p "${BIN_DIR}"
rm -f "${STAMP}"
start=${SECONDS}
echo "tools: building helm ${version}"
go build -trimpath -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=${version} \
  -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=${kube_minor} \
  -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=${kube_minor}" \
  -o "${BIN_DIR}/.helm.tmp" helm.sh/helm/v3/cmd/helm
mv -f "${BIN_DIR}/.helm.tmp" "${BIN_DIR}/helm"
echo "${want}" > "${STAMP}"
echo "tools: built helm in $((SECONDS - start))s"
