# Sourced by build.sh and build-node.sh: the version every Kubernetes binary we build
# reports (so `kubelet --version` matches kube-apiserver's), and the loop that builds a
# list of tools into BIN_DIR.

KUBE_VERSION="v1.36.3"
KUBE_MAJOR="1"
KUBE_MINOR="36"

# kube_ldflags prints the -ldflags that stamp KUBE_VERSION into component-base and
# client-go, as kube's own release build does.
kube_ldflags() {
  local build_date pkg flags=""
  build_date="$(date -u +'%Y-%m-%dT%H:%M:%SZ')"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    flags+=" -X ${pkg}.gitVersion=${KUBE_VERSION}"
    flags+=" -X ${pkg}.gitMajor=${KUBE_MAJOR}"
    flags+=" -X ${pkg}.gitMinor=${KUBE_MINOR}"
    flags+=" -X ${pkg}.gitTreeState=clean"
    flags+=" -X ${pkg}.buildDate=${build_date}"
  done
  echo "${flags} -s -w"
}

# build_tools builds each "name=package" of the TOOLS array into BIN_DIR, one at a time
# (`go build` already uses every core for one package graph), passing its arguments to
# `go build`. Each goes to a temporary name first and is renamed, so an interrupted build
# never leaves a truncated binary that a later run would take for a good one.
build_tools() {
  local ldflags t name pkg start
  ldflags="$(kube_ldflags)"
  for t in "${TOOLS[@]}"; do
    name="${t%%=*}"
    pkg="${t#*=}"
    start=${SECONDS}
    echo "tools: building ${name} (${pkg})"
    go build "$@" -trimpath -ldflags "${ldflags}" -o "${BIN_DIR}/.${name}.tmp" "${pkg}"
    mv -f "${BIN_DIR}/.${name}.tmp" "${BIN_DIR}/${name}"
    echo "tools: built ${name} in $((SECONDS - start))s"
  done
}
