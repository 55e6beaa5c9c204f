#!/usr/bin/env bash
# Creates the certificates of artifacts/deploy without cert-manager: kruise-apiserver's
# serving certificate (its own CA), and the etcd cluster's (a separate etcd CA, the members'
# certificate and kruise-apiserver's etcd client certificate).
#
# Usage:
#   hack/gen-certs.sh [--apply]
#     writes to CERT_DIR (files that already exist are kept):
#       ca.crt, ca.key, tls.crt, tls.key       kruise-apiserver's CA and serving certificate
#       etcd-ca.crt, etcd-ca.key               the etcd CA: etcd trusts only what it signed
#       etcd-member.crt, etcd-member.key       every etcd member, as server and as peer
#                                              (CN etcd-member, --peer-cert-allowed-cn)
#       etcd-client.crt, etcd-client.key       kruise-apiserver's etcd client certificate
#     --apply: also creates/updates in NAMESPACE the Secrets kruise-apiserver-cert,
#              etcd-member-cert and kruise-apiserver-etcd-client-cert, and sets the CA as
#              caBundle of the four Kruise APIServices. kruise-apiserver registers its Pod
#              webhook with the Secret's ca.crt when it starts: after replacing the CA,
#              restart it (kubectl -n kruise-system rollout restart deployment/kruise-apiserver).
#              Apply artifacts/deploy first, or run this again after applying it. The etcd
#              Secrets are unused by artifacts/deploy/overlays/single (embedded etcd).
#              The namespace is created only if it does not exist, and never changed:
#              after `helm install --set certificates.mode=external` Helm owns it.
#     without --apply: prints the kubectl commands that do the same.
# Environment:
#   CERT_DIR   default _output/certs
#   NAMESPACE  default kruise-system;  SERVICE  default kruise-apiserver
#   ETCD_MEMBERS  default 3 (the etcd StatefulSet's replicas; the certificate names each)
#   CLUSTER_DOMAIN  default cluster.local
#   KUBECTL    default kubectl (uses the current KUBECONFIG)
set -o errexit -o nounset -o pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "${ROOT}/hack/lib/certs.sh"

CERT_DIR="${CERT_DIR:-${ROOT}/_output/certs}"
NAMESPACE="${NAMESPACE:-kruise-system}"
SERVICE="${SERVICE:-kruise-apiserver}"
ETCD_MEMBERS="${ETCD_MEMBERS:-3}"
CLUSTER_DOMAIN="${CLUSTER_DOMAIN:-cluster.local}"
KUBECTL="${KUBECTL:-kubectl}"
# Names in artifacts/deploy/etcd: StatefulSet etcd, headless Service etcd, Service etcd-client.
ETCD_STATEFULSET=etcd
ETCD_HEADLESS_SERVICE=etcd
ETCD_CLIENT_SERVICE=etcd-client

mkdir -p "${CERT_DIR}"
chmod 700 "${CERT_DIR}"
certs::ca "${CERT_DIR}" ca "${SERVICE}-ca"
certs::signed "${CERT_DIR}" ca tls "/CN=${SERVICE}.${NAMESPACE}.svc" server \
  "$(certs::kruise_apiserver_sans "${NAMESPACE}" "${SERVICE}")"
echo "gen-certs: ${CERT_DIR}/tls.crt for ${SERVICE}.${NAMESPACE}.svc, CA ${CERT_DIR}/ca.crt"

# A CA of its own: etcd admits every client certificate its CA signed, so that CA must sign
# nothing but etcd's members and clients.
certs::ca "${CERT_DIR}" etcd-ca kruise-etcd-ca
# Server and client usage: a member presents it to clients and, as a client, to its peers.
certs::signed "${CERT_DIR}" etcd-ca etcd-member "/CN=etcd-member" both \
  "$(certs::etcd_member_sans "${NAMESPACE}" "${ETCD_STATEFULSET}" "${ETCD_HEADLESS_SERVICE}" \
    "${ETCD_CLIENT_SERVICE}" "${ETCD_MEMBERS}" "${CLUSTER_DOMAIN}")"
certs::signed "${CERT_DIR}" etcd-ca etcd-client "/CN=${SERVICE}" client
echo "gen-certs: ${CERT_DIR}/etcd-member.crt for ${ETCD_MEMBERS} etcd members, ${CERT_DIR}/etcd-client.crt for ${SERVICE}, CA ${CERT_DIR}/etcd-ca.crt"

if [[ "${1:-}" != "--apply" ]]; then
  cat <<EOT
Create the Secrets and set the caBundle of the four APIServices with:
  kubectl -n ${NAMESPACE} create secret generic kruise-apiserver-cert \\
    --from-file=tls.crt=${CERT_DIR}/tls.crt --from-file=tls.key=${CERT_DIR}/tls.key --from-file=ca.crt=${CERT_DIR}/ca.crt
  kubectl -n ${NAMESPACE} create secret generic etcd-member-cert \\
    --from-file=tls.crt=${CERT_DIR}/etcd-member.crt --from-file=tls.key=${CERT_DIR}/etcd-member.key --from-file=ca.crt=${CERT_DIR}/etcd-ca.crt
  kubectl -n ${NAMESPACE} create secret generic kruise-apiserver-etcd-client-cert \\
    --from-file=tls.crt=${CERT_DIR}/etcd-client.crt --from-file=tls.key=${CERT_DIR}/etcd-client.key --from-file=ca.crt=${CERT_DIR}/etcd-ca.crt
  for a in v1beta1.apps.kruise.io v1alpha1.apps.kruise.io v1beta1.policy.kruise.io v1alpha1.policy.kruise.io; do
    kubectl patch apiservice \$a --type=merge -p "{\"spec\":{\"caBundle\":\"\$(base64 -w0 < ${CERT_DIR}/ca.crt)\"}}"
  done
  # kruise-apiserver registers its Pod webhook with ca.crt when it starts: after
  # replacing the CA, restart it
  kubectl -n ${NAMESPACE} rollout restart deployment/${SERVICE}
(or run: hack/gen-certs.sh --apply)
EOT
  exit 0
fi

# secret <name> <crt> <key> <ca>: creates or updates a Secret with tls.crt, tls.key, ca.crt.
secret() {
  "${KUBECTL}" -n "${NAMESPACE}" create secret generic "$1" \
    --from-file=tls.crt="${CERT_DIR}/$2" --from-file=tls.key="${CERT_DIR}/$3" \
    --from-file=ca.crt="${CERT_DIR}/$4" --dry-run=client -o yaml | "${KUBECTL}" apply -f -
}

# Created only when missing: applying it would take over a namespace that Helm (or
# kustomize) owns, with a warning about its missing last-applied annotation.
"${KUBECTL}" get namespace "${NAMESPACE}" >/dev/null 2>&1 || "${KUBECTL}" create namespace "${NAMESPACE}" >/dev/null
secret kruise-apiserver-cert tls.crt tls.key ca.crt
secret etcd-member-cert etcd-member.crt etcd-member.key etcd-ca.crt
secret kruise-apiserver-etcd-client-cert etcd-client.crt etcd-client.key etcd-ca.crt
ca="$(base64 -w0 < "${CERT_DIR}/ca.crt")"
for a in v1beta1.apps.kruise.io v1alpha1.apps.kruise.io v1beta1.policy.kruise.io v1alpha1.policy.kruise.io; do
  if "${KUBECTL}" get apiservice "${a}" >/dev/null 2>&1; then
    "${KUBECTL}" patch apiservice "${a}" --type=merge -p "{\"spec\":{\"caBundle\":\"${ca}\"}}"
  else
    echo "gen-certs: APIService ${a} not found; apply artifacts/deploy and run this again (with Helm the install hook registers it with this CA)" >&2
  fi
done
# kruise-apiserver registers its Pod webhook with the Secret's ca.crt when it starts.
echo "gen-certs: if the CA changed, restart kruise-apiserver so that it registers its Pod webhook with it: ${KUBECTL} -n ${NAMESPACE} rollout restart deployment/${SERVICE}"
