#!/usr/bin/env bash
# Regenerates every generated file: deepcopy, defaulters, conversions, protobuf,
# OpenAPI, clientset, listers, informers, apply configurations, and the Pod webhook
# configurations (from the webhook's handler list).
# The generators are Go tools pinned in go.mod (`go tool ...`); protoc comes from
# Debian's protobuf-compiler.
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}"
export GONOSUMDB=k8s.io GOFLAGS=-mod=mod

MOD=github.com/kruise-native/kruise-native
HDR=hack/boilerplate.go.txt
GROUPS_INTERNAL=(pkg/apis/apps pkg/apis/policy)
VERSIONS=(pkg/apis/apps/v1alpha1 pkg/apis/apps/v1beta1 pkg/apis/policy/v1alpha1 pkg/apis/policy/v1beta1)
SHARED=(pkg/apis/apps/pub)
GEN=pkg/generated

pkgs() { local p; for p in "$@"; do printf '%s/%s\n' "${MOD}" "$p"; done; }

echo "+ protobuf"
hack/update-protobuf.sh

echo "+ deepcopy"
go tool deepcopy-gen --go-header-file "${HDR}" --output-file zz_generated.deepcopy.go \
  $(pkgs "${SHARED[@]}" "${GROUPS_INTERNAL[@]}" "${VERSIONS[@]}")

echo "+ defaulters"
go tool defaulter-gen --go-header-file "${HDR}" --output-file zz_generated.defaults.go \
  $(pkgs "${VERSIONS[@]}")

echo "+ conversions"
go tool conversion-gen --go-header-file "${HDR}" --output-file zz_generated.conversion.go \
  $(pkgs "${VERSIONS[@]}")

echo "+ openapi"
mkdir -p "${GEN}/openapi"
go tool openapi-gen --go-header-file "${HDR}" --output-file zz_generated.openapi.go \
  --output-dir "${GEN}/openapi" --output-pkg "${MOD}/${GEN}/openapi" \
  --report-filename "${GEN}/openapi/api_violations.report" \
  --output-model-name-file zz_generated.model_name.go \
  k8s.io/apimachinery/pkg/apis/meta/v1 k8s.io/apimachinery/pkg/runtime \
  k8s.io/apimachinery/pkg/version k8s.io/apimachinery/pkg/util/intstr \
  k8s.io/apimachinery/pkg/api/resource \
  k8s.io/api/core/v1 k8s.io/api/apps/v1 k8s.io/api/autoscaling/v1 k8s.io/api/batch/v1 \
  $(pkgs "${SHARED[@]}" "${VERSIONS[@]}")

echo "+ apply configurations"
# SidecarContainer embeds a core/v1 Container inline: its fields get builders only
# with client-go's apply configurations for Container and for the types of its
# fields (the flag adds to the generator's meta/v1 defaults). Other core/v1 types
# stay plain structs in our apply configurations.
CORE_AC=""
for t in Container ContainerPort EnvFromSource EnvVar ResourceRequirements ContainerResizePolicy \
  ContainerRestartRule EphemeralContainer VolumeMount VolumeDevice Probe ProbeHandler ExecAction HTTPGetAction HTTPHeader TCPSocketAction GRPCAction Lifecycle SecurityContext; do
  CORE_AC+="${CORE_AC:+,}k8s.io/api/core/v1.${t}:k8s.io/client-go/applyconfigurations/core/v1"
done
rm -rf "${GEN}/applyconfiguration"
go tool applyconfiguration-gen --go-header-file "${HDR}" \
  --external-applyconfigurations "${CORE_AC}" \
  --output-dir "${GEN}/applyconfiguration" --output-pkg "${MOD}/${GEN}/applyconfiguration" \
  $(pkgs "${SHARED[@]}" "${VERSIONS[@]}")

echo "+ clientset"
rm -rf "${GEN}/clientset"
inputs=(); for v in "${VERSIONS[@]}"; do inputs+=(--input "${MOD}/${v}"); done
go tool client-gen --go-header-file "${HDR}" --clientset-name versioned --input-base "" \
  "${inputs[@]}" \
  --output-dir "${GEN}/clientset" --output-pkg "${MOD}/${GEN}/clientset" \
  --apply-configuration-package "${MOD}/${GEN}/applyconfiguration"

echo "+ listers"
rm -rf "${GEN}/listers"
go tool lister-gen --go-header-file "${HDR}" \
  --output-dir "${GEN}/listers" --output-pkg "${MOD}/${GEN}/listers" \
  $(pkgs "${VERSIONS[@]}")

echo "+ informers"
rm -rf "${GEN}/informers"
go tool informer-gen --go-header-file "${HDR}" \
  --versioned-clientset-package "${MOD}/${GEN}/clientset/versioned" \
  --listers-package "${MOD}/${GEN}/listers" \
  --output-dir "${GEN}/informers" --output-pkg "${MOD}/${GEN}/informers" \
  $(pkgs "${VERSIONS[@]}")
