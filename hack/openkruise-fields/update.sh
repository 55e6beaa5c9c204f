#!/usr/bin/env bash
# Regenerates the OpenKruise field goldens of the field-parity test
# (test/integration/aggregation/parity_test.go) from a checkout of
# github.com/openkruise/kruise in OPENKRUISE_SRC. The module proxy serves kruise-api only
# up to v1.8.0, so the goldens are kept as data in the repository and
# testdata/openkruise/SOURCES.md says from which upstream files and commits they come;
# update that table after running this.
#
# With a full checkout every group/version is rewritten and the goldens of kinds
# OpenKruise dropped are removed (-prune). For a partial tree (only some directories or
# files), run the generator directly without -prune: it rewrites the kinds it finds and
# leaves the other goldens alone:
#   go run ./hack/openkruise-fields -src /path/to/partial-tree
set -o errexit -o nounset -o pipefail
cd "$(dirname "$0")/../.."
: "${OPENKRUISE_SRC:?set OPENKRUISE_SRC to a checkout of github.com/openkruise/kruise}"
go run ./hack/openkruise-fields -src "$OPENKRUISE_SRC" -prune \
  -out test/integration/aggregation/testdata/openkruise
