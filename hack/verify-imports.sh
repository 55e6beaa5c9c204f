#!/usr/bin/env bash
# Checks the import rules of ARCHITECTURE.md ("Layers"), from `go list`:
#   1. the product binaries link no test or development support (the local stack, the
#      in-memory CRI runtime, test/, the dev daemon's runtime);
#   2. API types import nothing of this repository outside pkg/apis (and the generated
#      code) but the known exceptions below;
#   3. the pure rule packages (layer 2) import no server, controller or daemon code;
#   4. the server imports no controller or daemon code, the daemon no server or
#      controller code;
#   5. a controller imports no other controller (only pkg/controllers/internal and the
#      manager it registers with).
# Every rule prints each offending import as "package -> import".
set -o errexit -o nounset -o pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mod=$(go list -m)
# Known upward imports, to be removed (ARCHITECTURE.md lists them): "from -> to", module-relative.
known=()

# edges: "from -> to" for every import of a repository package by a non-test file.
edges=$(go list -f '{{$p := .ImportPath}}{{range .Imports}}{{$p}} -> {{.}}{{"\n"}}{{end}}' ./pkg/... ./cmd/... ./internal/... |
  grep -F " -> ${mod}/" | sed "s#${mod}/##g")

failed=0
check() { # rule, grep -P pattern over edges; known exceptions subtracted
  local rule=$1 pattern=$2 hits
  hits=$(grep -P "${pattern}" <<<"${edges}" || true)
  for k in "${known[@]+"${known[@]}"}"; do hits=$(grep -vxF "${k}" <<<"${hits}" || true); done
  if [[ -n "${hits}" ]]; then
    echo "import rule broken: ${rule}" >&2
    echo "${hits}" | sed 's/^/  /' >&2
    failed=1
  fi
}

support='(internal/localstack|internal/fakecri|internal/devruntime|internal/testsupport|test)(/|$)'
for bin in cmd/apiserver cmd/controller cmd/node-daemon cmd/kubectl-kruise; do
  if hits=$(go list -deps "./${bin}" | sed "s#^${mod}/##" | grep -E "^${support}"); then
    echo "import rule broken: ${bin} links test or development support:" >&2
    echo "${hits}" | sed 's/^/  /' >&2
    failed=1
  fi
done

rules='pkg/(podbudget|workloadspread|uniteddeployment|resourcedistribution|sidecarset|recreaterequest|deletionprotection|envmeta|revisiondata|podutil|nodeidentity|features)'
upper='pkg/(registry|admission|apiserver|controllers|reconcile|nodedaemon|kubectlkruise|installhooks)'
check "API types import only pkg/apis and generated code" '^pkg/apis/[^ ]* -> pkg/(?!apis/|generated/)'
check "pure rules import no server, controller or daemon code" "^${rules}(/[^ ]*)? -> ${upper}(/|\$)"
check "the server imports no controller or daemon code" '^pkg/(registry|admission|apiserver)(/[^ ]*)? -> pkg/(controllers|reconcile|nodedaemon)(/|$)'
check "the node daemon imports no server or controller code" '^pkg/nodedaemon(/[^ ]*)? -> pkg/(registry|admission|apiserver|controllers)(/|$)'
check "a controller imports no other controller" '^pkg/controllers/([a-z0-9]+)(/[^ ]*)? -> pkg/controllers/(?!internal(/|$)|manager$|\1(/|$))'

if [[ ${failed} -ne 0 ]]; then
  exit 1
fi
echo "imports: every layer rule of ARCHITECTURE.md holds (${#known[@]} known exceptions)"
