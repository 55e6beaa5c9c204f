#!/usr/bin/env bash
# Starts the local control plane: etcd, kube-apiserver, kube-controller-manager,
# kube-scheduler, kwok (fake kubelets) and NODES fake nodes; then, when their binaries
# exist in BIN_DIR, kruise-apiserver (registered through APIServices), kruise-controller
# and one node daemon per node (kruise-node-daemon-dev: kruise-node-daemon with a fake
# container runtime, kwok nodes having none). Everything listens on 127.0.0.1 only.
#
# Usage:
#   hack/local-up.sh                 start whatever is not running yet (idempotent)
#   hack/local-up.sh start <name>    start one component of an existing stack, e.g.
#                                    kruise-apiserver, kruise-controller, kruise-node-daemon-<node>
#   hack/local-up.sh status          list components, pids and ports
#   hack/local-up.sh ports           print the port of every component (KEY=VALUE)
# Stop with hack/local-down.sh (all, or one component by name).
#
# Environment (see hack/LOCAL.md):
#   LOCAL_DIR  state directory (default _output/local): pki/, kubeconfig, logs/, pids/, data
#   BIN_DIR    binaries (default _output/bin; `make tools` and `make build` fill it)
#   PORT_BASE  0 = standard ports; otherwise every port = PORT_BASE + fixed offset
#   NODES      number of kwok nodes (default 3)
#   WAIT_TIMEOUT  seconds to wait for each component to become ready (default 90)
#   KRUISE_APISERVER_ARGS, KRUISE_CONTROLLER_ARGS, KRUISE_NODE_DAEMON_ARGS  extra flags for those binaries
#   POD_WEBHOOK_FAILURE_POLICY  Ignore (default) or Fail: the Pod webhook's failurePolicy
#                (trade-off in artifacts/deploy/apiserver/pod-webhook.yaml)
#   KUBE_APISERVER_ARGS  extra kube-apiserver flags (e.g. audit logging for benchmarks)
#   KWOK_STAGES  directory of kwok Stage files (default hack/local/kwok)
#   KWOK_JOB_RUN_TIME_MS  how long a Job/BroadcastJob pod runs when it does not say
#                (annotation job.kwok.kruise-native.io/run-time); default: the Stages' 1000
#   KWOK_ARGS    extra kwok flags
set -o errexit -o nounset -o pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "${ROOT}/hack/lib/certs.sh"

abspath() { mkdir -p "$1" && (cd "$1" && pwd); }
LOCAL_DIR="$(abspath "${LOCAL_DIR:-${ROOT}/_output/local}")"
BIN_DIR="$(abspath "${BIN_DIR:-${ROOT}/_output/bin}")"
PORT_BASE="${PORT_BASE:-0}"
NODES="${NODES:-3}"
WAIT_TIMEOUT="${WAIT_TIMEOUT:-90}"
KRUISE_APISERVER_ARGS="${KRUISE_APISERVER_ARGS:-}"
KRUISE_CONTROLLER_ARGS="${KRUISE_CONTROLLER_ARGS:-}"
POD_WEBHOOK_FAILURE_POLICY="${POD_WEBHOOK_FAILURE_POLICY:-Ignore}"
KRUISE_NODE_DAEMON_ARGS="${KRUISE_NODE_DAEMON_ARGS:-}"
KUBE_APISERVER_ARGS="${KUBE_APISERVER_ARGS:-}"
KWOK_ARGS="${KWOK_ARGS:-}"

PKI="${LOCAL_DIR}/pki"
KUBECONFIGS="${LOCAL_DIR}/kubeconfigs"
LOGS="${LOCAL_DIR}/logs"
PIDS="${LOCAL_DIR}/pids"
ADMIN_KUBECONFIG="${LOCAL_DIR}/kubeconfig"
KWOK_STAGES="${KWOK_STAGES:-${ROOT}/hack/local/kwok}"
KWOK_JOB_RUN_TIME_MS="${KWOK_JOB_RUN_TIME_MS:-}"
LOCAL_MANIFESTS="${ROOT}/hack/local/manifests"
LOCAL_RBAC="${ROOT}/hack/local/rbac"

SERVICE_CIDR="10.96.0.0/16"
SERVICE_IP="10.96.0.1"
POD_CIDR="10.244.0.0/16"
KRUISE_NS="kruise-system"
KRUISE_SVC="kruise-apiserver"
# the user kube-apiserver calls the Pod webhook as (its client certificate's CN)
WEBHOOK_CLIENT_USER="kube-apiserver-webhook-client"
APISERVICES=(v1beta1.apps.kruise.io v1alpha1.apps.kruise.io v1beta1.policy.kruise.io v1alpha1.policy.kruise.io)

# ---------------------------------------------------------------------------------------
# ports: standard value when PORT_BASE=0, PORT_BASE+offset otherwise (offsets < 20, so
# stacks at PORT_BASE values 20 apart never overlap)

declare -A PORT_STD=(
  [kube-apiserver]=6443 [etcd]=2379 [etcd-peer]=2380
  [kube-controller-manager]=10257 [kube-scheduler]=10259 [kwok]=10247
  [kruise-apiserver]=9443 [kruise-etcd]=12379 [kruise-etcd-peer]=12380
  [kruise-controller]=10270
)
declare -A PORT_OFFSET=(
  [kube-apiserver]=0 [etcd]=1 [etcd-peer]=2
  [kube-controller-manager]=3 [kube-scheduler]=4 [kwok]=5
  [kruise-apiserver]=6 [kruise-etcd]=7 [kruise-etcd-peer]=8
  [kruise-controller]=9
)
PORT_NAMES=(kube-apiserver etcd etcd-peer kube-controller-manager kube-scheduler kwok kruise-apiserver kruise-etcd kruise-etcd-peer kruise-controller)

# The node daemons run this binary: the production daemon's code with an in-process fake
# runtime and kubelet simulator (cmd/node-daemon-dev); kruise-node-daemon itself needs a
# real CRI runtime. Their components keep the daemon's name, kruise-node-daemon-<node>.
NODE_DAEMON_BIN=kruise-node-daemon-dev

# kruise-node-daemon-kwok-node-<i> serves /healthz, /readyz and /metrics on its own port
# for the first DAEMON_PORTS nodes: DAEMON_PORT_STD+i, or PORT_BASE+DAEMON_PORT_OFFSET+i
# (offsets 10..19, inside a stack's 20 ports). Daemons of further nodes listen on a free
# port (logged) and are only checked to be running.
DAEMON_PORTS=10
DAEMON_PORT_STD=10280
DAEMON_PORT_OFFSET=10

port() {
  if [[ "${PORT_BASE}" == "0" ]]; then
    echo "${PORT_STD[$1]}"
  else
    echo $((PORT_BASE + PORT_OFFSET[$1]))
  fi
}

# daemon_port <node>: the health port of the node's daemon, nothing past DAEMON_PORTS
daemon_port() {
  local i="${1#kwok-node-}"
  [[ "${i}" =~ ^[0-9]+$ ]] && ((i < DAEMON_PORTS)) || return 0
  if [[ "${PORT_BASE}" == "0" ]]; then
    echo $((DAEMON_PORT_STD + i))
  else
    echo $((PORT_BASE + DAEMON_PORT_OFFSET + i))
  fi
}

# which ports each component listens on
component_ports() {
  case "$1" in
    etcd) echo "$(port etcd) $(port etcd-peer)" ;;
    kruise-apiserver) echo "$(port kruise-apiserver) $(port kruise-etcd) $(port kruise-etcd-peer)" ;;
    kube-apiserver | kube-controller-manager | kube-scheduler | kwok | kruise-controller) port "$1" ;;
    kruise-node-daemon-*) daemon_port "${1#kruise-node-daemon-}" ;;
    *) echo "" ;;
  esac
}

# ---------------------------------------------------------------------------------------
# output and processes

log() { echo "local-up: $*"; }
die() { echo "local-up: ERROR: $*" >&2; exit 1; }

log_tail() {
  local f="${LOGS}/$1.log"
  if [[ -f "$f" ]]; then
    echo "----- last 40 lines of ${f} -----" >&2
    tail -n 40 "$f" >&2
    echo "-----" >&2
  fi
}

fail_component() { # <component> <message>
  log_tail "$1"
  die "$1: $2 (log: ${LOGS}/$1.log)"
}

# the binary a component runs
component_bin() {
  case "$1" in
    kruise-node-daemon-*) echo "${NODE_DAEMON_BIN}" ;;
    *) echo "$1" ;;
  esac
}

# pid of a running component started from this LOCAL_DIR, or nothing
running_pid() {
  local f="${PIDS}/$1.pid" pid
  [[ -f "$f" ]] || return 1
  pid="$(cat "$f")"
  [[ -n "${pid}" ]] && kill -0 "${pid}" 2>/dev/null || return 1
  # guard against pid reuse: argv[0] must be our binary
  local argv0
  argv0="$(tr '\0' '\n' < "/proc/${pid}/cmdline" 2>/dev/null | head -n 1)"
  [[ "$(basename "${argv0}")" == "$(component_bin "$1")" ]] || return 1
  echo "${pid}"
}

# started_alive <component>: the process we just started is still there. Only kill -0:
# right after the fork its argv[0] can still be bash (before exec), so running_pid's
# argv check would report it dead.
started_alive() {
  local pid
  pid="$(cat "${PIDS}/$1.pid" 2>/dev/null)" && [[ -n "${pid}" ]] && kill -0 "${pid}" 2>/dev/null
}

# port_holder <port>: prints who listens on 127.0.0.1/any:<port>, nothing when free
port_holder() {
  local p="$1" line
  line="$(ss -Hltnp "( sport = :${p} )" 2>/dev/null | head -n 1)"
  if [[ -n "${line}" ]]; then
    local users
    users="$(grep -o 'users:(.*)' <<<"${line}" || true)"
    echo "${users:-a process this user cannot see (${line})}"
    return 0
  fi
  # ss shows nothing (or is missing): try to connect
  if (exec 3<>"/dev/tcp/127.0.0.1/${p}") 2>/dev/null; then
    echo "an unknown process"
  fi
}

check_ports_free() { # <component>
  local p holder
  for p in $(component_ports "$1"); do
    holder="$(port_holder "${p}")"
    if [[ -n "${holder}" ]]; then
      die "port ${p} needed by $1 is already in use by ${holder}. Stop that process, or choose other ports with PORT_BASE=<n> (see hack/LOCAL.md)."
    fi
  done
}

# start_process <component> <binary path> [args...]: background, own session, logs appended
start_process() {
  local name="$1" bin="$2"
  shift 2
  [[ -x "${bin}" ]] || die "${bin} not found; run 'make tools' (and 'make build' for kruise binaries)"
  check_ports_free "${name}"
  mkdir -p "${LOGS}" "${PIDS}"
  {
    echo "===== $(date -u +%Y-%m-%dT%H:%M:%SZ) starting ${name}"
    echo "===== ${bin} $*"
  } >> "${LOGS}/${name}.log"
  setsid "${bin}" "$@" >> "${LOGS}/${name}.log" 2>&1 < /dev/null &
  echo $! > "${PIDS}/${name}.pid"
  log "started ${name} (pid $!)"
}

# start_process_env <component> <VAR=value> <binary path> [args...]
start_process_env() {
  local name="$1" envkv="$2"
  shift 2
  export "${envkv?}"
  start_process "${name}" "$@"
  unset "${envkv%%=*}"
}

# wait_ready <component> <description> <command...>: polls the command until it succeeds,
# the process dies, or WAIT_TIMEOUT passes
wait_ready() {
  local name="$1" what="$2"
  shift 2
  local deadline=$((SECONDS + WAIT_TIMEOUT))
  while true; do
    if "$@" >/dev/null 2>&1; then
      [[ -n "${WAIT_QUIET:-}" ]] || log "${name} is ready (${what})"
      return 0
    fi
    if ! started_alive "${name}"; then
      fail_component "${name}" "exited before it was ready"
    fi
    if ((SECONDS >= deadline)); then
      fail_component "${name}" "not ready after ${WAIT_TIMEOUT}s (waiting for ${what})"
    fi
    sleep 0.25
  done
}

# wait_alive <component>...: for programs without a known health endpoint; catches a
# process that exits at once (bad flag, bad kubeconfig) but cannot tell that it works
wait_alive() {
  local name deadline=$((SECONDS + 3))
  while ((SECONDS < deadline)); do
    for name in "$@"; do
      started_alive "${name}" || fail_component "${name}" "exited right after start"
    done
    sleep 0.25
  done
  for name in "$@"; do
    log "${name} is running (no health endpoint known; check ${LOGS}/${name}.log)"
  done
}

curl_ok() { # <url> [curl args...]: 2xx and, for health endpoints, body "ok"
  local url="$1"
  shift
  curl --silent --show-error --fail --max-time 3 "$@" "${url}"
}

admin_curl() { curl_ok "$1" --cacert "${PKI}/ca.crt" --cert "${PKI}/admin.crt" --key "${PKI}/admin.key"; }

kubectl_() { "${BIN_DIR}/kubectl" --kubeconfig "${ADMIN_KUBECONFIG}" "$@"; }

# ---------------------------------------------------------------------------------------
# certificates and kubeconfigs

ensure_pki() {
  mkdir -p "${PKI}"
  chmod 700 "${PKI}"
  local d="${PKI}"
  certs::ca "$d" ca "kruise-native-local-ca"
  certs::ca "$d" front-proxy-ca "kruise-native-local-front-proxy-ca"
  certs::ca "$d" kruise-ca "kruise-native-local-kruise-apiserver-ca"
  certs::keypair "$d" sa
  certs::signed "$d" ca apiserver "/CN=kube-apiserver" server \
    "DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,IP:127.0.0.1,IP:${SERVICE_IP}"
  certs::signed "$d" ca kube-controller-manager-serving "/CN=kube-controller-manager" server "DNS:localhost,IP:127.0.0.1"
  certs::signed "$d" ca kube-scheduler-serving "/CN=kube-scheduler" server "DNS:localhost,IP:127.0.0.1"
  certs::signed "$d" ca admin "/O=system:masters/CN=kubernetes-admin" client
  certs::signed "$d" ca kube-controller-manager "/CN=system:kube-controller-manager" client
  certs::signed "$d" ca kube-scheduler "/CN=system:kube-scheduler" client
  # kwok plays every kubelet; it writes Node and Pod status of all fake nodes.
  certs::signed "$d" ca kwok "/O=system:masters/CN=kwok" client
  certs::signed "$d" front-proxy-ca front-proxy-client "/CN=front-proxy-client" client
  # kube-apiserver's client certificate for the Pod webhook (admission config below):
  # signed by the cluster client CA that kruise-apiserver's delegated authentication
  # trusts; RBAC (artifacts/deploy/rbac/pod-webhook-caller.yaml) lets this user call it.
  certs::signed "$d" ca kube-apiserver-webhook-client "/CN=${WEBHOOK_CLIENT_USER}" client
  certs::signed "$d" kruise-ca kruise-apiserver-serving "/CN=${KRUISE_SVC}.${KRUISE_NS}.svc" server \
    "$(certs::kruise_apiserver_sans "${KRUISE_NS}" "${KRUISE_SVC}")"
}

# kube-apiserver's --admission-control-config-file: the webhook admission plugins take
# the credentials they present to a webhook from a kubeconfig whose users are keyed by
# the webhook's host:port (k8s.io/apiserver pkg/util/webhook/authentication.go). Only
# kruise-apiserver's host gets the certificate: no "*" entry and no current-context, so
# other webhooks are still called without it.
ensure_admission_config() {
  local kc="${KUBECONFIGS}/webhook-client.kubeconfig" cfg="${LOCAL_DIR}/admission-config.yaml"
  mkdir -p "${KUBECONFIGS}"
  (
    umask 077
    cat > "${kc}.tmp" <<EOF
apiVersion: v1
kind: Config
users:
- name: 127.0.0.1:$(port kruise-apiserver)
  user:
    client-certificate: ${PKI}/kube-apiserver-webhook-client.crt
    client-key: ${PKI}/kube-apiserver-webhook-client.key
EOF
    cat > "${cfg}.tmp" <<EOF
apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: MutatingAdmissionWebhook
  configuration:
    apiVersion: apiserver.config.k8s.io/v1
    kind: WebhookAdmissionConfiguration
    kubeConfigFile: ${kc}
- name: ValidatingAdmissionWebhook
  configuration:
    apiVersion: apiserver.config.k8s.io/v1
    kind: WebhookAdmissionConfiguration
    kubeConfigFile: ${kc}
EOF
  )
  mv -f "${kc}.tmp" "${kc}"
  mv -f "${cfg}.tmp" "${cfg}"
}

# write_kubeconfig <file> <user> (cert <crt> <key> | token <token>)
write_kubeconfig() {
  local file="$1" user="$2" kind="$3" auth
  mkdir -p "$(dirname "${file}")"
  if [[ "${kind}" == cert ]]; then
    auth="    client-certificate-data: $(base64 -w0 < "$4")
    client-key-data: $(base64 -w0 < "$5")"
  else
    auth="    token: $4"
  fi
  local tmp="${file}.tmp"
  (
    umask 077
    cat > "${tmp}" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: kruise-native-local
  cluster:
    server: https://127.0.0.1:$(port kube-apiserver)
    certificate-authority-data: $(base64 -w0 < "${PKI}/ca.crt")
users:
- name: ${user}
  user:
${auth}
contexts:
- name: ${user}@kruise-native-local
  context:
    cluster: kruise-native-local
    user: ${user}
current-context: ${user}@kruise-native-local
EOF
  )
  mv -f "${tmp}" "${file}"
}

ensure_kubeconfigs() {
  mkdir -p "${KUBECONFIGS}"
  write_kubeconfig "${ADMIN_KUBECONFIG}" kubernetes-admin cert "${PKI}/admin.crt" "${PKI}/admin.key"
  local c
  for c in kube-controller-manager kube-scheduler kwok; do
    write_kubeconfig "${KUBECONFIGS}/${c}.kubeconfig" "${c}" cert "${PKI}/${c}.crt" "${PKI}/${c}.key"
  done
}

# A kubeconfig with a fresh ServiceAccount token (like the one a pod would get), so kruise
# components run as their real identities and RBAC is the same as in artifacts/deploy.
# Tokens bound to a Node carry the node name in the user's extra
# (authentication.kubernetes.io/node-name), which the node daemon's admission relies on.
# token_kubeconfig <component> <serviceaccount> [node]
token_kubeconfig() {
  local component="$1" sa="$2" node="${3:-}" token
  local args=(create token "${sa}" -n "${KRUISE_NS}" --duration=720h)
  if [[ -n "${node}" ]]; then
    args+=(--bound-object-kind=Node --bound-object-name="${node}")
  fi
  token="$(kubectl_ "${args[@]}")" || die "cannot create a token for ${KRUISE_NS}/${sa}"
  write_kubeconfig "${KUBECONFIGS}/${component}.kubeconfig" "system:serviceaccount:${KRUISE_NS}:${sa}" token "${token}"
}

write_ports_env() {
  local f="${LOCAL_DIR}/local.env" n
  {
    echo "# written by hack/local-up.sh; KEY=VALUE, shell and Go readable"
    echo "LOCAL_DIR=${LOCAL_DIR}"
    echo "BIN_DIR=${BIN_DIR}"
    echo "KUBECONFIG=${ADMIN_KUBECONFIG}"
    echo "PORT_BASE=${PORT_BASE}"
    echo "NODES=${NODES}"
    for n in "${PORT_NAMES[@]}"; do
      echo "PORT_$(tr 'a-z-' 'A-Z_' <<<"${n}")=$(port "${n}")"
    done
    daemon_ports | while IFS='=' read -r n p; do
      echo "PORT_$(tr 'a-z-' 'A-Z_' <<<"${n}")=${p}"
    done
  } > "${f}"
}

# daemon_ports: kruise-node-daemon-<node>=<port> for the daemons with a known port
daemon_ports() {
  local node p
  for node in $(node_names); do
    p="$(daemon_port "${node}")"
    [[ -z "${p}" ]] || echo "kruise-node-daemon-${node}=${p}"
  done
}

# ---------------------------------------------------------------------------------------
# components

start_etcd() {
  mkdir -p "${LOCAL_DIR}/etcd"
  chmod 700 "${LOCAL_DIR}/etcd"
  start_process etcd "${BIN_DIR}/etcd" \
    --name=local \
    --data-dir="${LOCAL_DIR}/etcd" \
    --listen-client-urls="http://127.0.0.1:$(port etcd)" \
    --advertise-client-urls="http://127.0.0.1:$(port etcd)" \
    --listen-peer-urls="http://127.0.0.1:$(port etcd-peer)" \
    --initial-advertise-peer-urls="http://127.0.0.1:$(port etcd-peer)" \
    --initial-cluster="local=http://127.0.0.1:$(port etcd-peer)" \
    --quota-backend-bytes=$((8 * 1024 * 1024 * 1024)) \
    --unsafe-no-fsync \
    --log-level=warn
  wait_ready etcd "/readyz" curl_ok "http://127.0.0.1:$(port etcd)/readyz"
}

start_kube_apiserver() {
  ensure_admission_config
  # shellcheck disable=SC2086 # extra args are split on purpose
  start_process kube-apiserver "${BIN_DIR}/kube-apiserver" \
    --bind-address=127.0.0.1 \
    --advertise-address=127.0.0.1 \
    --secure-port="$(port kube-apiserver)" \
    --etcd-servers="http://127.0.0.1:$(port etcd)" \
    --tls-cert-file="${PKI}/apiserver.crt" \
    --tls-private-key-file="${PKI}/apiserver.key" \
    --client-ca-file="${PKI}/ca.crt" \
    --authorization-mode=Node,RBAC \
    --enable-admission-plugins=NodeRestriction \
    --allow-privileged=true \
    --service-cluster-ip-range="${SERVICE_CIDR}" \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="${PKI}/sa.pub" \
    --service-account-signing-key-file="${PKI}/sa.key" \
    --endpoint-reconciler-type=none \
    --requestheader-client-ca-file="${PKI}/front-proxy-ca.crt" \
    --requestheader-allowed-names=front-proxy-client \
    --requestheader-username-headers=X-Remote-User \
    --requestheader-group-headers=X-Remote-Group \
    --requestheader-extra-headers-prefix=X-Remote-Extra- \
    --proxy-client-cert-file="${PKI}/front-proxy-client.crt" \
    --proxy-client-key-file="${PKI}/front-proxy-client.key" \
    --admission-control-config-file="${LOCAL_DIR}/admission-config.yaml" \
    --profiling=false ${KUBE_APISERVER_ARGS}
  wait_ready kube-apiserver "/readyz" admin_curl "https://127.0.0.1:$(port kube-apiserver)/readyz"
}

start_kube_controller_manager() {
  local kc="${KUBECONFIGS}/kube-controller-manager.kubeconfig"
  start_process kube-controller-manager "${BIN_DIR}/kube-controller-manager" \
    --kubeconfig="${kc}" \
    --authentication-kubeconfig="${kc}" \
    --authorization-kubeconfig="${kc}" \
    --bind-address=127.0.0.1 \
    --secure-port="$(port kube-controller-manager)" \
    --tls-cert-file="${PKI}/kube-controller-manager-serving.crt" \
    --tls-private-key-file="${PKI}/kube-controller-manager-serving.key" \
    --client-ca-file="${PKI}/ca.crt" \
    --requestheader-client-ca-file="${PKI}/front-proxy-ca.crt" \
    --use-service-account-credentials=true \
    --service-account-private-key-file="${PKI}/sa.key" \
    --root-ca-file="${PKI}/ca.crt" \
    --cluster-signing-cert-file="${PKI}/ca.crt" \
    --cluster-signing-key-file="${PKI}/ca.key" \
    --service-cluster-ip-range="${SERVICE_CIDR}" \
    --cluster-name=kruise-native-local \
    --leader-elect=false \
    --profiling=false \
    --node-monitor-grace-period=5m
  # kwok renews node leases from one process; on a loaded 2-core machine a renewal can
  # come late, and kube's 50 s grace would mark nodes NotReady and their pods unready
  # for good (kwok does not bring a pod back to Ready). Fake nodes never really fail.
  wait_ready kube-controller-manager "/healthz" \
    curl_ok "https://127.0.0.1:$(port kube-controller-manager)/healthz" --cacert "${PKI}/ca.crt"
}

start_kube_scheduler() {
  local kc="${KUBECONFIGS}/kube-scheduler.kubeconfig"
  start_process kube-scheduler "${BIN_DIR}/kube-scheduler" \
    --kubeconfig="${kc}" \
    --authentication-kubeconfig="${kc}" \
    --authorization-kubeconfig="${kc}" \
    --bind-address=127.0.0.1 \
    --secure-port="$(port kube-scheduler)" \
    --tls-cert-file="${PKI}/kube-scheduler-serving.crt" \
    --tls-private-key-file="${PKI}/kube-scheduler-serving.key" \
    --client-ca-file="${PKI}/ca.crt" \
    --leader-elect=false \
    --profiling=false
  wait_ready kube-scheduler "/readyz" \
    curl_ok "https://127.0.0.1:$(port kube-scheduler)/readyz" --cacert "${PKI}/ca.crt"
}

start_kwok() {
  local args=(
    --kubeconfig="${KUBECONFIGS}/kwok.kubeconfig"
    --manage-all-nodes=false
    --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake
    --server-address="127.0.0.1:$(port kwok)"
    --cidr="${POD_CIDR}"
    --node-ip=10.0.0.1
    # Renew the nodes' Leases: without them kube-controller-manager marks every node
    # NotReady once its node-monitor grace period (5 min) runs out, and a `make up`
    # stack older than that stops running pods.
    --node-lease-duration-seconds=40
  )
  local f stages="${KWOK_STAGES}"
  if [[ -n "${KWOK_JOB_RUN_TIME_MS}" ]]; then
    # the job Stages' default run time is the durationMilliseconds their
    # "# KWOK_JOB_RUN_TIME_MS" line holds: kwok gets copies with this one
    [[ "${KWOK_JOB_RUN_TIME_MS}" =~ ^[0-9]+$ ]] || die "KWOK_JOB_RUN_TIME_MS=${KWOK_JOB_RUN_TIME_MS} is not a number of milliseconds"
    stages="${LOCAL_DIR}/kwok-stages"
    rm -rf "${stages}" && mkdir -p "${stages}"
    for f in "${KWOK_STAGES}"/*.yaml; do
      sed -E "s/[0-9]+ # KWOK_JOB_RUN_TIME_MS\$/${KWOK_JOB_RUN_TIME_MS} # KWOK_JOB_RUN_TIME_MS/" "${f}" >"${stages}/$(basename "${f}")"
    done
  fi
  for f in "${stages}"/*.yaml; do
    args+=(--config="${f}")
  done
  # shellcheck disable=SC2206 # extra args are split on purpose
  args+=(${KWOK_ARGS})
  start_process kwok "${BIN_DIR}/kwok" "${args[@]}"
  wait_ready kwok "/healthz" curl_ok "http://127.0.0.1:$(port kwok)/healthz"
}

ensure_nodes() {
  ((NODES > 0)) || { log "NODES=0: no kwok nodes"; return 0; }
  local zones=(a b c) i name
  {
    for ((i = 0; i < NODES; i++)); do
      name="kwok-node-${i}"
      cat <<EOF
---
apiVersion: v1
kind: Node
metadata:
  name: ${name}
  annotations:
    kwok.x-k8s.io/node: fake
    node.alpha.kubernetes.io/ttl: "0"
  labels:
    type: kwok
    kubernetes.io/hostname: ${name}
    kubernetes.io/os: linux
    kubernetes.io/arch: amd64
    topology.kubernetes.io/zone: ${zones[$((i % 3))]}
status:
  allocatable: {cpu: "32", memory: 256Gi, pods: "250"}
  capacity: {cpu: "32", memory: 256Gi, pods: "250"}
  nodeInfo:
    architecture: amd64
    operatingSystem: linux
    kubeletVersion: fake
    kubeProxyVersion: fake
    containerRuntimeVersion: kwok
EOF
    done
  } | kubectl_ apply -f - >/dev/null || die "cannot create the kwok nodes"
  log "waiting for ${NODES} kwok nodes to be Ready and schedulable"
  local deadline=$((SECONDS + WAIT_TIMEOUT)) want="${NODES}" got
  while true; do
    # Ready=True and no node.kubernetes.io/not-ready taint left (kube-controller-manager
    # removes it once it sees the node Ready), so pods schedule right away
    got="$(kubectl_ get nodes -l type=kwok -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.status.conditions[?(@.type=="Ready")].status}{" "}{.spec.taints[*].key}{"\n"}{end}' 2>/dev/null |
      awk '$2 == "True" && $0 !~ /not-ready|unreachable|uninitialized/' | grep -c . || true)"
    ((got >= want)) && break
    if ((SECONDS >= deadline)); then
      kubectl_ get nodes -o wide >&2 || true
      fail_component kwok "only ${got}/${want} kwok nodes Ready and untainted after ${WAIT_TIMEOUT}s"
    fi
    started_alive kwok || fail_component kwok "exited"
    sleep 0.5
  done
  log "${NODES} kwok nodes Ready"
}

# --- kruise ----------------------------------------------------------------------------

have_bin() { [[ -x "${BIN_DIR}/$1" ]]; }

ensure_kruise_base() {
  kubectl_ apply -f - >/dev/null <<EOF || die "cannot create namespace ${KRUISE_NS}"
apiVersion: v1
kind: Namespace
metadata:
  name: ${KRUISE_NS}
EOF
  # same ServiceAccounts, delegation bindings and aggregated roles as a real cluster
  kubectl_ apply -k "${ROOT}/artifacts/deploy/rbac" >/dev/null || die "cannot apply artifacts/deploy/rbac"
  # plus what only the local stack's programs need (kruise-node-daemon-dev's simulated kubelet)
  kubectl_ apply -f "${LOCAL_RBAC}" >/dev/null || die "cannot apply ${LOCAL_RBAC}"
}

# the expected APIServices whose group/version kruise-apiserver serves (from its /apis).
# Polled: the server answers 503 until it trusts the cluster's client CAs (see pkg/apiserver/authngate).
served_apiservices() {
  local apis="" v deadline=$((SECONDS + WAIT_TIMEOUT))
  until apis="$(curl_ok "https://127.0.0.1:$(port kruise-apiserver)/apis" --cacert "${PKI}/kruise-ca.crt" \
    --cert "${PKI}/admin.crt" --key "${PKI}/admin.key" 2>&1)"; do
    started_alive kruise-apiserver || fail_component kruise-apiserver "exited"
    ((SECONDS < deadline)) || fail_component kruise-apiserver "cannot read its /apis: ${apis}"
    sleep 0.25
  done
  apis="$(grep -o '"groupVersion": *"[^"]*"' <<<"${apis}" | sed 's/.*"\([^"]*\)"$/\1/')"
  for v in "${APISERVICES[@]}"; do
    if grep -qx "${v#*.}/${v%%.*}" <<<"${apis}"; then echo "${v}"; fi
  done
}

# kruise-apiserver runs on this host: an ExternalName Service makes the aggregator dial
# localhost:<port> and verify the certificate for kruise-apiserver.kruise-system.svc.
# Only group/versions the server serves are registered: an APIService without a server
# breaks discovery, and with it namespace deletion and garbage collection cluster-wide.
ensure_apiservices() {
  local p ca v group prio served registered=()
  p="$(port kruise-apiserver)"
  ca="$(base64 -w0 < "${PKI}/kruise-ca.crt")"
  served="$(served_apiservices)"
  for v in "${APISERVICES[@]}"; do
    if grep -qx "${v}" <<<"${served}"; then
      registered+=("${v}")
    else
      log "WARNING: kruise-apiserver does not serve ${v#*.}/${v%%.*}; APIService ${v} not registered"
      kubectl_ delete apiservice "${v}" --ignore-not-found >/dev/null 2>&1 || true
    fi
  done
  ((${#registered[@]} > 0)) || fail_component kruise-apiserver "serves none of ${APISERVICES[*]}"
  {
    cat <<EOF
apiVersion: v1
kind: Service
metadata:
  name: ${KRUISE_SVC}
  namespace: ${KRUISE_NS}
spec:
  type: ExternalName
  externalName: localhost
  ports:
  - name: https
    port: ${p}
    targetPort: ${p}
    protocol: TCP
EOF
    for v in "${registered[@]}"; do
      # within a group the highest versionPriority is the preferred version: v1beta1
      # (kubectl still finds kinds that exist only in v1alpha1). groupPriorityMinimum
      # 1000 stays below the built-in groups, so `kubectl get statefulsets` keeps meaning
      # apps/v1 and Kruise kinds are asked for as statefulsets.apps.kruise.io, as with CRDs.
      group="${v#*.}"
      case "${v%%.*}" in v1beta1) prio=100 ;; *) prio=50 ;; esac
      cat <<EOF
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: ${v}
  labels:
    app.kubernetes.io/part-of: kruise-native
spec:
  group: ${group}
  version: ${v%%.*}
  groupPriorityMinimum: 1000
  versionPriority: ${prio}
  service:
    name: ${KRUISE_SVC}
    namespace: ${KRUISE_NS}
    port: ${p}
  caBundle: ${ca}
EOF
    done
  } | kubectl_ apply -f - >/dev/null || die "cannot create the kruise APIServices"
}

remove_apiservices() {
  kubectl_ delete apiservice "${APISERVICES[@]}" --ignore-not-found >/dev/null 2>&1 || true
}

# wait until every registered Kruise APIService is Available
wait_apiservices() {
  local deadline=$((SECONDS + WAIT_TIMEOUT)) v status all registered=()
  for v in "${APISERVICES[@]}"; do
    kubectl_ get apiservice "${v}" >/dev/null 2>&1 && registered+=("${v}")
  done
  ((${#registered[@]} > 0)) || return 0
  log "waiting for APIServices ${registered[*]} to be Available"
  while true; do
    all=1
    for v in "${registered[@]}"; do
      status="$(kubectl_ get apiservice "${v}" -o jsonpath='{.status.conditions[?(@.type=="Available")].status}' 2>/dev/null || true)"
      [[ "${status}" == "True" ]] || { all=0; break; }
    done
    ((all)) && { log "APIServices Available"; return 0; }
    started_alive kruise-apiserver || fail_component kruise-apiserver "exited"
    if ((SECONDS >= deadline)); then
      kubectl_ get apiservice "${registered[@]}" -o wide >&2 || true
      kubectl_ get apiservice "${v}" -o jsonpath='{.status.conditions[?(@.type=="Available")].message}{"\n"}' >&2 || true
      fail_component kruise-apiserver "APIService ${v} not Available after ${WAIT_TIMEOUT}s"
    fi
    sleep 0.5
  done
}

# optional manifests for the local stack (e.g. Pod webhook configurations pointing at
# https://127.0.0.1:<port>): hack/local/manifests/*.yaml, with ${KRUISE_APISERVER_PORT},
# ${KRUISE_CA_BUNDLE}, ${KUBE_APISERVER_PORT} and ${POD_WEBHOOK_FAILURE_POLICY} replaced
apply_local_manifests() {
  [[ -d "${LOCAL_MANIFESTS}" ]] || return 0
  local f ca
  ca="$(base64 -w0 < "${PKI}/kruise-ca.crt")"
  for f in "${LOCAL_MANIFESTS}"/*.yaml; do
    [[ -e "$f" ]] || continue
    sed -e "s|\${KRUISE_APISERVER_PORT}|$(port kruise-apiserver)|g" \
      -e "s|\${KRUISE_CA_BUNDLE}|${ca}|g" \
      -e "s|\${KUBE_APISERVER_PORT}|$(port kube-apiserver)|g" \
      -e "s|\${POD_WEBHOOK_FAILURE_POLICY}|${POD_WEBHOOK_FAILURE_POLICY}|g" "$f" |
      kubectl_ apply -f - >/dev/null || die "cannot apply ${f}"
    log "applied ${f#"${ROOT}/"}"
  done
}

# the exact flags kruise-apiserver is started with (also by `start kruise-apiserver`).
# --disable-http2-serving: kube-apiserver calls a webhook at a loopback URL (this stack's
# Pod webhook) over one HTTP/2 connection, and under pod-create load that path stalled
# past the 3 s webhook timeout and failed open (2000 bare creates: 73 pods/s, 168 calls
# failing open; over HTTP/1.1, as kube-apiserver calls a Service-referenced webhook in
# a real cluster: 255 pods/s, none). JSON lists through the aggregator were faster too.
start_kruise_apiserver() {
  local kc="${KUBECONFIGS}/kruise-apiserver.kubeconfig"
  token_kubeconfig kruise-apiserver kruise-apiserver
  mkdir -p "${LOCAL_DIR}/kruise-etcd"
  chmod 700 "${LOCAL_DIR}/kruise-etcd"
  # shellcheck disable=SC2086 # extra args are split on purpose
  start_process kruise-apiserver "${BIN_DIR}/kruise-apiserver" \
    --secure-port="$(port kruise-apiserver)" \
    --bind-address=127.0.0.1 \
    --tls-cert-file="${PKI}/kruise-apiserver-serving.crt" \
    --tls-private-key-file="${PKI}/kruise-apiserver-serving.key" \
    --kubeconfig="${kc}" \
    --authentication-kubeconfig="${kc}" \
    --authorization-kubeconfig="${kc}" \
    --embedded-etcd-data-dir="${LOCAL_DIR}/kruise-etcd" \
    --embedded-etcd-client-port="$(port kruise-etcd)" \
    --embedded-etcd-peer-port="$(port kruise-etcd-peer)" \
    --embedded-etcd-unsafe-no-fsync \
    --disable-http2-serving ${KRUISE_APISERVER_ARGS}
  wait_ready kruise-apiserver "/readyz" \
    curl_ok "https://127.0.0.1:$(port kruise-apiserver)/readyz" --cacert "${PKI}/kruise-ca.crt" \
    --cert "${PKI}/admin.crt" --key "${PKI}/admin.key"
}

start_kruise_controller() {
  token_kubeconfig kruise-controller kruise-controller
  # shellcheck disable=SC2086 # extra args are split on purpose
  start_process kruise-controller "${BIN_DIR}/kruise-controller" \
    --kubeconfig="${KUBECONFIGS}/kruise-controller.kubeconfig" \
    --bind-address="127.0.0.1:$(port kruise-controller)" ${KRUISE_CONTROLLER_ARGS}
  wait_ready kruise-controller "/healthz" curl_ok "http://127.0.0.1:$(port kruise-controller)/healthz"
}

# Every daemon (NODE_DAEMON_BIN) runs the fake container runtime and kubelet simulator of
# its kwok node in process, on LOCAL_DIR/cri/<node>.sock (kwok nodes have no runtime): it
# pulls images there and recreates the containers the simulator mirrors from the node's pods.
start_kruise_node_daemon() { # <node> [--no-wait]
  local node="$1" name="kruise-node-daemon-$1" p
  p="$(daemon_port "${node}")"
  token_kubeconfig "${name}" kruise-node-daemon "${node}"
  mkdir -p "${LOCAL_DIR}/cri"
  # shellcheck disable=SC2086
  start_process_env "${name}" "NODE_NAME=${node}" "${BIN_DIR}/${NODE_DAEMON_BIN}" \
    --kubeconfig="${KUBECONFIGS}/${name}.kubeconfig" \
    --fake-runtime-socket="${LOCAL_DIR}/cri/${node}.sock" \
    --bind-address="127.0.0.1:${p:-0}" ${KRUISE_NODE_DAEMON_ARGS}
  [[ "${2:-}" == "--no-wait" ]] || wait_node_daemons "${name}"
}

# wait_node_daemons <component>...: /readyz (runtime answers, informers synced) of each
# daemon with a known port, one line for all; the others only have to keep running
wait_node_daemons() {
  local c p ports=() others=()
  for c in "$@"; do
    p="$(daemon_port "${c#kruise-node-daemon-}")"
    if [[ -n "${p}" ]]; then
      WAIT_QUIET=1 wait_ready "${c}" "/readyz" curl_ok "http://127.0.0.1:${p}/readyz"
      ports+=("${p}")
    else
      others+=("${c}")
    fi
  done
  ((${#ports[@]} == 0)) || log "$(( $# - ${#others[@]} )) node daemon(s) ready (/readyz on ports ${ports[*]})"
  ((${#others[@]} == 0)) || wait_alive "${others[@]}"
}

node_names() {
  local i
  for ((i = 0; i < NODES; i++)); do echo "kwok-node-${i}"; done
}

# ---------------------------------------------------------------------------------------
# orchestration

# start_one <component>: start it unless it already runs
start_one() {
  local c="$1" pid
  if pid="$(running_pid "${c}")"; then
    log "${c} already running (pid ${pid})"
    return 0
  fi
  case "${c}" in
    etcd) start_etcd ;;
    kube-apiserver) start_kube_apiserver ;;
    kube-controller-manager) start_kube_controller_manager ;;
    kube-scheduler) start_kube_scheduler ;;
    kwok) start_kwok ;;
    kruise-apiserver) start_kruise_apiserver ;;
    kruise-controller) start_kruise_controller ;;
    kruise-node-daemon-*) start_kruise_node_daemon "${c#kruise-node-daemon-}" ;;
    *) die "unknown component '${c}' (etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok, kruise-apiserver, kruise-controller, kruise-node-daemon-<node>)" ;;
  esac
}

# every component this stack should run, in start order
wanted_components() {
  echo etcd kube-apiserver kube-controller-manager kube-scheduler kwok
  have_bin kruise-apiserver && echo kruise-apiserver
  have_bin kruise-controller && echo kruise-controller
  if have_bin "${NODE_DAEMON_BIN}"; then
    node_names | sed 's/^/kruise-node-daemon-/'
  fi
}

check_tools() {
  local t missing=()
  for t in etcd kube-apiserver kube-controller-manager kube-scheduler kwok kubectl; do
    [[ -x "${BIN_DIR}/${t}" ]] || missing+=("${t}")
  done
  ((${#missing[@]} == 0)) || die "missing in ${BIN_DIR}: ${missing[*]}; run 'make tools'"
  command -v openssl >/dev/null || die "openssl is required"
  command -v curl >/dev/null || die "curl is required"
}

print_done() {
  echo
  echo "Local control plane is up (${LOCAL_DIR}). Logs: ${LOGS}/<component>.log"
  echo "export KUBECONFIG=${ADMIN_KUBECONFIG}"
  # _output/bin first: kubectl v1.36 and the kubectl-kruise plugin (`kubectl kruise ...`)
  echo "export PATH=${BIN_DIR}:\$PATH"
}

cmd_up() {
  check_tools
  local all_running=1 c
  for c in $(wanted_components); do
    running_pid "${c}" >/dev/null || { all_running=0; break; }
  done
  if ((all_running)) && admin_curl "https://127.0.0.1:$(port kube-apiserver)/readyz" >/dev/null 2>&1; then
    log "already up: $(wanted_components | tr '\n' ' ')"
    print_done
    return 0
  fi

  # every port of every component still to start, before starting any of them
  for c in $(wanted_components); do
    running_pid "${c}" >/dev/null || check_ports_free "${c}"
  done

  local start=${SECONDS}
  ensure_pki
  ensure_kubeconfigs
  write_ports_env
  for c in etcd kube-apiserver kube-controller-manager kube-scheduler kwok; do
    start_one "${c}"
  done
  ensure_nodes

  if have_bin kruise-apiserver; then
    ensure_kruise_base
    start_one kruise-apiserver
    ensure_apiservices
    wait_apiservices
    apply_local_manifests
  else
    # never leave an APIService without a server: discovery would fail, and with it
    # namespace deletion and garbage collection; nor a Pod webhook (with Fail, no pod
    # in its scope could be created)
    remove_apiservices
    kubectl_ delete mutatingwebhookconfiguration,validatingwebhookconfiguration kruise-pod-webhook --ignore-not-found >/dev/null
    log "no ${BIN_DIR}/kruise-apiserver: control plane only (run 'make build' for Kruise)"
  fi
  if have_bin kruise-controller; then
    have_bin kruise-apiserver || ensure_kruise_base
    start_one kruise-controller
  fi
  if have_bin "${NODE_DAEMON_BIN}"; then
    have_bin kruise-apiserver || have_bin kruise-controller || ensure_kruise_base
    # start them all, then watch them all for early exits at once
    local started=()
    for c in $(node_names); do
      if running_pid "kruise-node-daemon-${c}" >/dev/null; then
        log "kruise-node-daemon-${c} already running"
      else
        start_kruise_node_daemon "${c}" --no-wait
        started+=("kruise-node-daemon-${c}")
      fi
    done
    ((${#started[@]} == 0)) || wait_node_daemons "${started[@]}"
  fi
  log "up in $((SECONDS - start))s"
  print_done
}

cmd_start() {
  local c="${1:-}"
  [[ -n "${c}" ]] || die "usage: $0 start <component>"
  check_tools
  [[ -f "${ADMIN_KUBECONFIG}" && -d "${PKI}" ]] || die "no stack in ${LOCAL_DIR}; run $0 first"
  # keeps every existing file; adds what a stack made by an older local-up.sh lacks
  ensure_pki
  start_one "${c}"
  if [[ "${c}" == kruise-apiserver ]]; then
    # a rebuilt server may serve other group/versions than before
    ensure_apiservices
    wait_apiservices
  fi
}

cmd_status() {
  local c pid
  printf '%-32s %-8s %s\n' COMPONENT PID PORTS
  for c in $(wanted_components); do
    pid="$(running_pid "${c}" || echo -)"
    printf '%-32s %-8s %s\n' "${c}" "${pid}" "$(component_ports "${c}")"
  done
}

cmd_ports() {
  local n
  for n in "${PORT_NAMES[@]}"; do echo "${n}=$(port "${n}")"; done
  have_bin "${NODE_DAEMON_BIN}" && daemon_ports
  return 0
}

case "${1:-up}" in
  up) cmd_up ;;
  start) cmd_start "${2:-}" ;;
  status) cmd_status ;;
  ports) cmd_ports ;;
  -h | --help | help) sed -n '2,22p' "$0" ;;
  *) die "unknown command '$1' (up, start <component>, status, ports)" ;;
esac
