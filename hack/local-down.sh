#!/usr/bin/env bash
# Stops what hack/local-up.sh started in LOCAL_DIR (by pid file), newest first, and waits
# for every process to exit. Logs stay in LOCAL_DIR/logs.
#
# Usage:
#   hack/local-down.sh                 stop everything
#   hack/local-down.sh <component>...  stop only these (e.g. kruise-apiserver)
# Environment:
#   LOCAL_DIR  as for local-up.sh (default _output/local)
#   CLEAN=1    also remove the data: etcd, kruise-etcd, certificates, kubeconfigs
#              (only when stopping everything; logs are kept)
#   STOP_TIMEOUT  seconds to wait after SIGTERM before SIGKILL (default 30)
set -o errexit -o nounset -o pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOCAL_DIR="${LOCAL_DIR:-${ROOT}/_output/local}"
PIDS="${LOCAL_DIR}/pids"
STOP_TIMEOUT="${STOP_TIMEOUT:-30}"

log() { echo "local-down: $*"; }

# the binary a component runs (argv[0] is checked so a reused pid is never signalled)
component_bin() {
  case "$1" in
    kruise-node-daemon-*) echo kruise-node-daemon-dev ;; # NODE_DAEMON_BIN of local-up.sh
    *) echo "$1" ;;
  esac
}

ours() { # <component> <pid>
  local argv0
  kill -0 "$2" 2>/dev/null || return 1
  argv0="$(tr '\0' '\n' < "/proc/$2/cmdline" 2>/dev/null | head -n 1)"
  [[ "$(basename "${argv0}")" == "$(component_bin "$1")" ]]
}

stop() { # <component>
  local c="$1" f="${PIDS}/$1.pid" pid
  if [[ ! -f "${f}" ]]; then
    log "${c}: not started here"
    return 0
  fi
  pid="$(cat "${f}")"
  if [[ -z "${pid}" ]] || ! ours "${c}" "${pid}"; then
    log "${c}: not running"
    rm -f "${f}"
    return 0
  fi
  kill -TERM "${pid}" 2>/dev/null || true
  local deadline=$((SECONDS + STOP_TIMEOUT))
  while ours "${c}" "${pid}"; do
    if ((SECONDS >= deadline)); then
      log "${c}: still running ${STOP_TIMEOUT}s after SIGTERM, sending SIGKILL"
      kill -KILL "${pid}" 2>/dev/null || true
      deadline=$((SECONDS + 10))
      while ours "${c}" "${pid}" && ((SECONDS < deadline)); do sleep 0.1; done
      break
    fi
    sleep 0.1
  done
  rm -f "${f}"
  log "${c}: stopped (pid ${pid})"
}

# components in stop order: kruise first, then kwok, controllers, apiserver, etcd last
ORDER=(kruise-node-daemon-* kruise-controller kruise-apiserver kwok kube-scheduler kube-controller-manager kube-apiserver etcd)

if [[ ! -d "${LOCAL_DIR}" ]]; then
  log "nothing to stop (${LOCAL_DIR} does not exist)"
  exit 0
fi

if (($# > 0)); then
  for c in "$@"; do stop "${c}"; done
  exit 0
fi

shopt -s nullglob
for pattern in "${ORDER[@]}"; do
  for f in "${PIDS}"/${pattern}.pid; do
    [[ -e "${f}" ]] || continue
    c="$(basename "${f}" .pid)"
    stop "${c}"
  done
done
# anything else with a pid file (a component this script does not know yet)
for f in "${PIDS}"/*.pid; do
  stop "$(basename "${f}" .pid)"
done

if [[ "${CLEAN:-0}" == "1" ]]; then
  rm -rf "${LOCAL_DIR}/etcd" "${LOCAL_DIR}/kruise-etcd" "${LOCAL_DIR}/pki" \
    "${LOCAL_DIR}/kubeconfigs" "${LOCAL_DIR}/kubeconfig" "${LOCAL_DIR}/admission-config.yaml" \
    "${LOCAL_DIR}/local.env" "${PIDS}"
  log "removed the data in ${LOCAL_DIR} (logs kept in ${LOCAL_DIR}/logs)"
fi
log "done"
