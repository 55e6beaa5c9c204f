#!/usr/bin/env bash
# Creates a private CA and kruise-apiserver's serving certificate for a real cluster
# (artifacts/deploy without cert-manager).
#
# Usage:
#   hack/gen-certs.sh [--apply]
#     writes CERT_DIR/{ca.crt,ca.key,tls.crt,tls.key} (kept if they already exist)
#     --apply: also creates/updates the Secret kruise-apiserver-cert in kruise-system and
#              sets the CA as caBundle of the three Kruise APIServices and of the Pod
#              webhook (apply artifacts/deploy first, or run this again after applying it)
# Environment:
#   CERT_DIR   default _output/certs
#   NAMESPACE  default kruise-system;  SERVICE  default kruise-apiserver
#   KUBECTL    default kubectl (uses the current KUBECONFIG)
set -o errexit -o nounset -o pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "${ROOT}/hack/lib/certs.sh"

CERT_DIR="${CERT_DIR:-${ROOT}/_output/certs}"
NAMESPACE="${NAMESPACE:-kruise-system}"
SERVICE="${SERVICE:-kruise-apiserver}"
KUBECTL="${KUBECTL:-kubectl}"

mkdir -p "${CERT_DIR}"
chmod 700 "${CERT_DIR}"
certs::ca "${CERT_DIR}" ca "${SERVICE}-ca"
certs::signed "${CERT_DIR}" ca tls "/CN=${SERVICE}.${NAMESPACE}.svc" server \
  "$(certs::kruise_apiserver_sans "${NAMESPACE}" "${SERVICE}")"
echo "gen-certs: ${CERT_DIR}/tls.crt for ${SERVICE}.${NAMESPACE}.svc, CA ${CERT_DIR}/ca.crt"

if [[ "${1:-}" != "--apply" ]]; then
  cat <<EOT
Create the Secret and set the APIServices' caBundle with:
  kubectl -n ${NAMESPACE} create secret generic kruise-apiserver-cert \\
    --from-file=tls.crt=${CERT_DIR}/tls.crt --from-file=tls.key=${CERT_DIR}/tls.key --from-file=ca.crt=${CERT_DIR}/ca.crt
  for a in v1beta1.apps.kruise.io v1alpha1.apps.kruise.io v1alpha1.policy.kruise.io; do
    kubectl patch apiservice \$a --type=merge -p "{\"spec\":{\"caBundle\":\"\$(base64 -w0 < ${CERT_DIR}/ca.crt)\"}}"
  done
  kubectl patch mutatingwebhookconfiguration kruise-pod-webhook --type=json \
    -p "[{\"op\":\"add\",\"path\":\"/webhooks/0/clientConfig/caBundle\",\"value\":\"\$(base64 -w0 < ${CERT_DIR}/ca.crt)\"}]"
(or run: hack/gen-certs.sh --apply)
EOT
  exit 0
fi

"${KUBECTL}" create namespace "${NAMESPACE}" --dry-run=client -o yaml | "${KUBECTL}" apply -f - >/dev/null
"${KUBECTL}" -n "${NAMESPACE}" create secret generic kruise-apiserver-cert \
  --from-file=tls.crt="${CERT_DIR}/tls.crt" --from-file=tls.key="${CERT_DIR}/tls.key" \
  --from-file=ca.crt="${CERT_DIR}/ca.crt" --dry-run=client -o yaml | "${KUBECTL}" apply -f -
ca="$(base64 -w0 < "${CERT_DIR}/ca.crt")"
for a in v1beta1.apps.kruise.io v1alpha1.apps.kruise.io v1alpha1.policy.kruise.io; do
  if "${KUBECTL}" get apiservice "${a}" >/dev/null 2>&1; then
    "${KUBECTL}" patch apiservice "${a}" --type=merge -p "{\"spec\":{\"caBundle\":\"${ca}\"}}"
  else
    echo "gen-certs: APIService ${a} not found; apply artifacts/deploy and run this again" >&2
  fi
done
if "${KUBECTL}" get mutatingwebhookconfiguration kruise-pod-webhook >/dev/null 2>&1; then
  "${KUBECTL}" patch mutatingwebhookconfiguration kruise-pod-webhook --type=json \
    -p "[{\"op\":\"add\",\"path\":\"/webhooks/0/clientConfig/caBundle\",\"value\":\"${ca}\"}]"
else
  echo "gen-certs: MutatingWebhookConfiguration kruise-pod-webhook not found; apply artifacts/deploy and run this again" >&2
fi
