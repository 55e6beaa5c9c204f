#!/usr/bin/env bash
# openssl helpers shared by hack/local-up.sh and hack/gen-certs.sh. Source, don't run.
# Every function is idempotent: it keeps a file that already exists.

# certs::ca <dir> <name> <common name>  ->  <dir>/<name>.crt, <dir>/<name>.key
certs::ca() {
  local dir="$1" name="$2" cn="$3"
  [[ -s "${dir}/${name}.crt" && -s "${dir}/${name}.key" ]] && return 0
  openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 \
    -keyout "${dir}/${name}.key" -out "${dir}/${name}.crt" \
    -subj "/CN=${cn}" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" \
    >/dev/null 2>&1 || { echo "openssl: cannot create CA ${name}" >&2; return 1; }
}

# certs::signed <dir> <ca name> <name> <subject> <client|server|both> [SAN,...]
#   -> <dir>/<name>.crt, <dir>/<name>.key signed by <dir>/<ca name>.{crt,key}
#   subject: e.g. "/O=system:masters/CN=kubernetes-admin"
#   SANs: comma separated, e.g. "DNS:localhost,IP:127.0.0.1"
certs::signed() {
  local dir="$1" ca="$2" name="$3" subject="$4" usage="$5" sans="${6:-}"
  [[ -s "${dir}/${name}.crt" && -s "${dir}/${name}.key" ]] && return 0
  local eku
  case "${usage}" in
    client) eku="clientAuth" ;;
    server) eku="serverAuth" ;;
    both) eku="serverAuth,clientAuth" ;;
    *) echo "certs::signed: usage must be client, server or both" >&2; return 1 ;;
  esac
  local ext="${dir}/${name}.ext"
  {
    echo "basicConstraints=critical,CA:FALSE"
    echo "keyUsage=critical,digitalSignature,keyEncipherment"
    echo "extendedKeyUsage=${eku}"
    [[ -n "${sans}" ]] && echo "subjectAltName=${sans}"
  } > "${ext}"
  if ! {
    openssl req -newkey rsa:2048 -nodes -sha256 \
      -keyout "${dir}/${name}.key" -out "${dir}/${name}.csr" -subj "${subject}" >/dev/null 2>&1 &&
      openssl x509 -req -sha256 -days 3650 -in "${dir}/${name}.csr" \
        -CA "${dir}/${ca}.crt" -CAkey "${dir}/${ca}.key" -CAcreateserial \
        -extfile "${ext}" -out "${dir}/${name}.crt" >/dev/null 2>&1
  }; then
    echo "openssl: cannot create certificate ${name}" >&2
    return 1
  fi
  rm -f "${dir}/${name}.csr" "${dir}/${name}.ext"
}

# certs::keypair <dir> <name>  ->  <dir>/<name>.key (RSA private), <dir>/<name>.pub
certs::keypair() {
  local dir="$1" name="$2"
  [[ -s "${dir}/${name}.key" && -s "${dir}/${name}.pub" ]] && return 0
  if ! {
    openssl genrsa -out "${dir}/${name}.key" 2048 >/dev/null 2>&1 &&
      openssl rsa -in "${dir}/${name}.key" -pubout -out "${dir}/${name}.pub" >/dev/null 2>&1
  }; then
    echo "openssl: cannot create key pair ${name}" >&2
    return 1
  fi
}

# certs::kruise_apiserver_sans <namespace> <service>: the names kruise-apiserver answers to.
certs::kruise_apiserver_sans() {
  local ns="$1" svc="$2"
  echo "DNS:${svc}.${ns}.svc,DNS:${svc}.${ns}.svc.cluster.local,DNS:${svc}.${ns},DNS:${svc},DNS:localhost,IP:127.0.0.1"
}

# certs::etcd_member_sans <namespace> <statefulset> <headless service> <client service>
#   <members> <cluster domain>: the names the members of artifacts/deploy/etcd answer to, as
#   servers and as peers. Member names first: for a peer etcd resolves the names in order
#   until one matches the peer's address.
certs::etcd_member_sans() {
  local ns="$1" sts="$2" headless="$3" client="$4" members="$5" domain="$6" sans="" i
  for ((i = 0; i < members; i++)); do
    sans+="DNS:${sts}-${i}.${headless}.${ns}.svc,DNS:${sts}-${i}.${headless}.${ns}.svc.${domain},"
  done
  echo "${sans}DNS:${client}.${ns}.svc,DNS:${client}.${ns}.svc.${domain},DNS:${client}.${ns},DNS:${client},DNS:localhost,IP:127.0.0.1"
}
